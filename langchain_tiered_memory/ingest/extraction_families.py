"""Family rules for heuristic extraction: facts people state in passing (English; Chinese in
`extraction_families_zh`).

The base table (`extraction_rules`) reads the textbook phrasings ("I live in X", "my favourite X
is Y"). These rules read the families of everyday statements it misses, each built from a lexicon
(jobs, conditions, relatives, pets, languages, time words) and the clause's first-person frame
rather than from one wording: relatives and their names, occupations said in passing, health
conditions, diets, team decisions, standing style requests, habits (negated ones too), pets,
possessions, languages, ages and birthdays, schedules, budgets, plans tied to events, moves,
homes, workplaces and education. They run before the base table, so a family claims its text
first ("I'm a type 1 diabetic" is a health condition, not a job).

Kinds follow what a reader would store: relatives, pets, possessions and habits are ``fact``;
conditions, diets, schedules and budgets ``constraint``; plans ``goal``; style requests and
hobbies ``preference``; jobs, languages, ages, homes and schooling ``identity``.
"""

from __future__ import annotations

import re

from langchain_tiered_memory.ingest.extraction_rules import Rule

__all__ = ["EN_FAMILY_RULES"]

# ---- English fragments --------------------------------------------------------------------

_I = r"(?:(?<=^)|(?<=[\s,;:(\"'“]))(?:I|i)"
_WE = r"(?:(?<=^)|(?<=[\s,;:(\"'“]))(?:[Ww]e|[Ii])"
_ADV = (
    r"(?:\s+(?:really|also|just|still|actually|honestly|usually|always|generally|normally|mostly"
    r"|basically|currently|now|recently|finally|already|pretty\s+much|totally))*"
)
_END = r"(?=\s*(?:[,.;!?\n()]|$|\s(?:and|but|because|so|since|though|which)\s))"
_REST = r"(?P<obj>[^,.;!?\n()]+?)" + _END
_SPEECH = (
    r"(?!\s+(?:says?|said|saying|keeps\s+saying|thinks?|thought|told|tells|reckons|believes"
    r"|wants|asked|asks|mentioned|claims?|insists|swears)\b)"
)
_REL_WORDS = (
    r"wife|husband|partner|spouse|fianc[eé]e?|girlfriend|boyfriend|son|daughter|kids?|children"
    r"|child|twins|stepson|stepdaughter|stepkids|youngest|eldest|oldest|baby|toddler|mother|father"
    r"|mom|mum|dad|parents|brother|sister|sibling|grandmother|grandfather|grandma|grandpa|granny"
    r"|nan|aunt|uncle|cousin|niece|nephew|in-laws|mother-in-law|father-in-law|grandparents"
    r"|grandkids|grandchildren|grandson|granddaughter"
)
_REL = rf"(?P<slot>(?:(?:little|big|older|younger|baby|eldest|oldest|youngest|twin|step|only)[\s-])?(?:{_REL_WORDS}))"
_NAME = r"(?P<name>[A-Z][a-z\u00e0-\u024f'-]+(?:\s+(?:and|&)\s+[A-Z][a-z\u00e0-\u024f'-]+)?)"
_PETS = (
    r"dogs?|pupp(?:y|ies)|cats?|kittens?|beagles?|retrievers?|labradors?|labs?|poodles?"
    r"|terriers?|spaniels?|huskies|husky|corgis?|dachshunds?|collies?|shepherds?|bulldogs?"
    r"|pugs?|greyhounds?|parrots?|budgies?|hamsters?|rabbits?|bunn(?:y|ies)|guinea\s+pigs?"
    r"|tortoises?|turtles?|snakes?|geckos?|lizards?|bearded\s+dragons?|goldfish|fish|chickens?"
    r"|hens|horses?|pon(?:y|ies)|ferrets?|rats?|mice|cockatiels?"
)
_JOBS = (
    r"paramedic|nurse|doctor|physician|surgeon|dentist|hygienist|pharmacist|vet|veterinarian"
    r"|teacher|lecturer|professor|tutor|librarian|engineer|developer|programmer|designer|architect"
    r"|accountant|auditor|lawyer|attorney|solicitor|paralegal|judge|chef|cook|baker|barista"
    r"|bartender|waiter|waitress|cashier|driver|pilot|controller|firefighter|police\s+officer"
    r"|cop|detective|soldier|electrician|plumber|carpenter|mechanic|welder|farmer|gardener"
    r"|journalist|writer|editor|translator|photographer|videographer|artist|musician|actor"
    r"|actress|dancer|therapist|psychologist|psychiatrist|counsellor|counselor|social\s+worker"
    r"|midwife|carer|caregiver|scientist|researcher|analyst|consultant|manager|recruiter"
    r"|salesman|saleswoman|sales\s+rep|realtor|estate\s+agent|banker|trader|economist"
    r"|student|undergrad|postdoc|intern|freelancer|contractor|entrepreneur|founder"
    r"|receptionist|secretary|administrator|sysadmin|technician|radiographer|optometrist"
    r"|physiotherapist|physio|paramedic|courier|postman|cleaner|janitor|housekeeper|nanny"
    r"|stay-at-home\s+(?:mom|mum|dad|parent)|homemaker|retiree"
)
_JOB = rf"(?P<obj>(?:[\w-]+\s+){{0,3}}?(?:{_JOBS}))\b"
_CONDITIONS = (
    r"(?:type\s+[12]\s+)?diabet(?:es|ic)|asthma(?:tic)?|coeliac|celiac|adhd|add|autism|autistic"
    r"|epilep(?:sy|tic)|migraines?|arthritis|depression|anxiety|ocd|ptsd|ibs|crohn'?s"
    r"|colitis|high\s+blood\s+pressure|hypertension|low\s+blood\s+pressure|pcos|endometriosis"
    r"|eczema|psoriasis|dyslexi[ac]|colou?r[\s-]?blind|deaf|hard\s+of\s+hearing|tinnitus"
    r"|insomnia|sleep\s+apnea|lupus|cancer|multiple\s+sclerosis|gout|heart\s+condition"
    r"|anaemi[ac]|anemi[ac]|thyroid|hypothyroidism|fibromyalgia|long\s+covid|chronic\s+[\w\s]+"
    r"|bad\s+(?:back|knee|hip|shoulder)|bipolar|scoliosis|hearing\s+loss|[\w-]+\s+intolerance"
)
_BODY = r"knees?|back|hip|shoulders?|wrists?|ankles?|neck|eyes|eyesight|hearing|heart|stomach"
_LANGS = (
    r"English|Spanish|French|German|Italian|Portuguese|Dutch|Swedish|Norwegian|Danish|Finnish"
    r"|Polish|Czech|Russian|Ukrainian|Greek|Turkish|Arabic|Hebrew|Persian|Farsi|Hindi|Urdu"
    r"|Bengali|Punjabi|Tamil|Chinese|Mandarin|Cantonese|Japanese|Korean|Vietnamese|Thai"
    r"|Indonesian|Malay|Tagalog|Filipino|Swahili|Hungarian|Romanian|Catalan|Basque|Welsh|Irish"
    r"|ASL|sign\s+language"
)
_MONEY = (
    r"(?:[$€£¥]\s?\d[\d,.]*\s?(?:k|K|m|grand)?|\d[\d,.]*\s?(?:k|K|grand|dollars|bucks|euros?"
    r"|pounds|quid|yuan|rmb|RMB|yen|francs|usd|USD|eur|EUR|gbp|GBP))"
)
_DAYS = (
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?|weekdays?|nights|evenings|mornings"
)
_EVERY = (
    r"\b(?:every|each)\s+(?:single\s+)?(?:day|morning|night|evening|week|weekend|month|year"
    r"|summer|winter|spring|autumn|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b|\bdaily\b"
    r"|\bweekly\b|\brain\s+or\s+shine\b|\b(?:twice|once|three\s+times)\s+a\s+(?:day|week|month)\b"
)
_FREQUENCY = re.compile(
    _EVERY + r"|\b(?:always|usually|normally|most\s+days|(?:mon|tues|wednes|thurs|fri|satur|sun)days"
    r"|weekends|each\s+morning)\b",
    re.IGNORECASE,
)
_DIET_ITEMS = (
    r"meat|pork|beef|lamb|chicken|fish|seafood|shellfish|dairy|milk|cheese|eggs?|gluten|wheat"
    r"|sugar|alcohol|booze|beer|wine|spicy\s+food|red\s+meat|animal\s+products|nuts|peanuts"
)


def _en(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _en_i(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


EN_FAMILY_RULES: tuple[Rule, ...] = (
    # Standing style requests: a marker that the request outlives this answer.
    Rule(_en_i(rf"\b(?:always\s+|please\s+|only\s+)*(?:reply|respond|answer|write|talk|speak"
               rf"|chat)(?:\s+(?:to\s+|with\s+)?me)?\s+(?:only\s+)?in\s+(?P<obj>{_LANGS})\b"),
         "preference", "language.reply", "User wants replies in {obj}", 0.85),
    Rule(_en_i(r"(?:\bfrom\s+now\s+on|\bgoing\s+forward|\bin\s+(?:the\s+)?future|^\W*(?:please\s+)?always"
               r"|\bwhenever\s+you\b[^,.;]*|\bevery\s+time\s+you\b[^,.;]*|\bplease\s+(?:don't|do"
               r"\s+not)\s+ever|^\W*(?:please\s+)?never)[\s,:]+(?:please\s+)?(?P<obj>(?:keep|make|use|give|write"
               r"|answer|reply|respond|format|put|add|include|skip|avoid|stop|start|call|address"
               r"|don't|do\s+not|send|explain|show)\b[^.;!?\n]*)"),
         "preference", "preference.style.{topic}", "User wants the assistant to {obj}", 0.8,
         check_object=False),
    Rule(_en_i(r"\b(?:please\s+)?(?P<obj>(?:don't|do\s+not)\s+(?:ever\s+)?(?:use|send|add|put"
               r"|include)\s+[\w\s-]+?\s+(?:when|whenever)\s+you\s+(?:talk|write|reply|respond|answer)"
               r"\s+(?:to\s+)?me)\b"),
         "preference", "preference.style.{topic}", "User wants the assistant to {obj}", 0.8),
    Rule(_en_i(r"^\W*(?:please\s+)?(?P<obj>(?:use|give|keep|write|answer|reply)\s+[^,.;!?]+?"
               r"\s+(?:with|for|to)\s+me)\b(?!\s+(?:this|that|here|now))"),
         "preference", "preference.style.{topic}", "User wants the assistant to {obj}", 0.75),
    # Team and company decisions.
    Rule(_en_i(r"\b(?:we|our\s+team|the\s+team|my\s+team|management|leadership|the\s+company"
               r"|the\s+board|founders|the\s+founders|our\s+company|engineering)\b[^.;!?]{0,30}?"
               r"\b(?:finally\s+|just\s+|all\s+)?(?:decided|agreed|settled\s+on|picked|chose"
               r"|voted|opted|signed\s+off|committed)\b[\s:]*(?:to\s+|on\s+(?:it[\s:]*)?|that\s+)?"
               r"(?P<obj>[^.;!?\n]+)"),
         "decision", "decision.{topic}", "User's team decided: {obj}", 0.8),
    Rule(_en_i(r"\b(?:we|our\s+team|the\s+team)(?:'re|\s+are|\s+will\s+be|'ll\s+be)\s+"
               r"(?:moving|switching|migrating|replacing|dropping|ditching)\s+(?P<obj>[^.;!?\n]+)"),
         "decision", "decision.{topic}", "User's team is moving to {obj}", 0.75),
    # Relatives, named or described.
    Rule(_en(rf"(?i:\b(?:my|our))\s+(?i:{_REL})(?:,)?\s+{_NAME}(?=[\s,.;!]|$)"),
         "fact", "family.{slot}.name", "User's {slot} is named {name}", 0.85),
    Rule(_en(rf"(?i:{_I}(?:'ve|\s+have)?\s+(?:got|have)\s+(?:a|an|one|two|three|\d)\s+)"
             rf"(?i:{_REL})(?:s)?(?i:,?\s+(?:named|called))?,?\s+{_NAME}(?=[\s,.;!]|$)"),
         "fact", "family.{slot}.name", "User has a {slot} named {name}", 0.85),
    Rule(_en(rf"(?i:\b(?:my|our))\s+(?i:{_REL})\s+(?i:are|is)\s+(?i:named\s+|called\s+)?"
             rf"{_NAME}(?=[\s,.;!]|$)"),
         "fact", "family.{slot}.name", "User's {slot} is named {name}", 0.85),
    Rule(_en_i(rf"\b(?:my|our)\s+{_REL}{_SPEECH}(?:\s+(?:still|also|now|just|both|all|currently"
               rf"|recently|finally))*\s+(?P<obj>(?:works?|is|are|lives?|live|studies"
               rf"|study|teaches|runs|just|has|have|got|retired|goes|go|plays|moved|started"
               rf"|turned|turns|was\s+born|owns)\b[^,.;!?\n]*)"),
         "fact", "family.{slot}.{head}", "User's {slot} {obj}", 0.75),
    # Pets.
    Rule(_en(rf"(?i:\b(?:my|our)\s+(?:[\w-]+\s+){{0,2}}?)(?P<slot>(?i:{_PETS})),?\s+{_NAME}"
             r"(?=[\s,.;!]|$)"),
         "fact", "pet.{slot}", "User has a {slot} named {name}", 0.85),
    Rule(_en_i(rf"{_WE}(?:'ve|\s+have)?{_ADV}\s+(?:got|have|has|keep|own|adopted|rescued|got"
               rf"\s+a\s+new)\s+(?P<obj>(?:a|an|one|two|three|four|\d)\s+(?:[\w-]+\s+){{0,2}}?"
               rf"(?:{_PETS})\b[^.;!?\n]*)"),
         "fact", "pet.{head}", "User has {obj}", 0.8),
    # Occupations said in passing.
    Rule(_en_i(rf"(?:{_I}(?:'m|’m|\s+am|'ve\s+been|\s+have\s+been|\s+was|\s+work|\s+freelance"
               rf"|\s+trained){_ADV}\s+(?:as\s+)?(?:a|an)|\bas\s+(?:a|an)|\bbeing\s+(?:a|an)"
               rf"|\byou(?:'re|\s+are)\s+(?:a|an)|\bmy\s+job\s+as\s+(?:a|an))\s+"
               rf"(?!(?:big|huge|fan|bit|kind|sort|lot)\b){_JOB}"),
         "identity", "identity.occupation", "User is a {obj}", 0.8),
    Rule(_en_i(rf"\b(?P<obj>{_JOBS})\s+life\b"),
         "identity", "identity.occupation", "User is a {obj}", 0.7),
    Rule(_en_i(rf"\bas\s+someone\s+who\s+(?P<obj>[\w\s]+?)\s+(?:all\s+day|for\s+a\s+living"
               rf"|professionally)\b|{_I}\s+(?P<obj2>[\w\s]+?)\s+for\s+a\s+living\b"),
         "identity", "identity.occupation", "User's job: {obj}", 0.75),
    # Health.
    Rule(_en_i(rf"{_I}(?:'ve|\s+have)?{_ADV}\s+(?:got\s+)?(?:a\s+|an\s+)?(?P<obj>(?:[\w-]+\s+)?"
               rf"(?:{_DIET_ITEMS}|[\w-]+)\s+allergy)\b"),
         "constraint", "health.allergy.{topic}", "User has {obj}", 0.9),
    Rule(_en_i(rf"{_I}{_ADV}\s+(?:have\s+(?:a|an)\s+(?:bad|severe|serious|allergic)\s+reaction\s+to"
               rf"|react\s+badly\s+to|get\s+(?:hives|a\s+rash)\s+from|break\s+out"
               rf"\s+in\s+(?:hives|a\s+rash)\s+(?:from|when\s+i\s+eat)|can't\s+tolerate"
               rf"|(?:'m|\s+am)\s+intolerant\s+to)\s+{_REST}"),
         "constraint", "health.allergy.{topic}", "User reacts badly to {obj}", 0.85),
    Rule(_en_i(rf"{_I}(?:'m|\s+am){_ADV}\s+(?:seriously\s+|severely\s+|deathly\s+|very\s+)?"
               rf"allergic(?!\s+to)\b"),
         "constraint", "health.allergy", "User has an allergy", 0.8),
    Rule(_en_i(rf"(?:{_I}(?:'ve|\s+have)?{_ADV}\s+(?:got\s+|have\s+|had\s+|suffer\s+from\s+"
               rf"|live\s+with\s+|been\s+diagnosed\s+with\s+|was\s+diagnosed\s+with\s+)"
               rf"|{_I}(?:'m|\s+am){_ADV}\s+|\b(?:got|was|been)\s+diagnosed\s+with\s+)(?:a\s+|an\s+)?"
               rf"(?P<obj>(?:(?:mild|severe|chronic|bad|type\s+[12])\s+)?(?:{_CONDITIONS}))\b"),
         "constraint", "health.condition", "User has {obj}", 0.85),
    Rule(_en_i(rf"\bmy\s+(?P<obj>(?:{_BODY})\s+(?:is|are)\s+(?:shot|bad|weak|dodgy|busted|wrecked"
               rf"|injured|damaged|not\s+great|terrible)\b[^,.;!?]*)"),
         "constraint", "health.condition", "User's {obj}", 0.75),
    # Diets.
    Rule(_en_i(rf"{_WE}{_ADV}\s+(?:keep|eat|only\s+eat)\s+(?P<obj>kosher|halal|plant-based"
               rf"|vegan|vegetarian|paleo|keto)\b"),
         "constraint", "diet.style", "User keeps {obj}", 0.85),
    Rule(_en_i(r"\b(?:put\s+me\s+on|(?:i'm|i\s+am|we're|i've\s+been)\s+(?:on|doing|following)"
               r"|i\s+(?:follow|do|stick\s+to))\s+(?:a\s+|an\s+|the\s+)?(?P<obj>[\w-]+(?:\s+[\w-]+)?"
               r"\s+diet|keto|paleo|intermittent\s+fasting|whole30)\b"),
         "constraint", "diet.style", "User follows {obj}", 0.85),
    # Negated habits (a habit stated by what the user does not do) and habits.
    Rule(_en_i(rf"{_I}(?:\s+(?:don't|do\s+not|never|rarely|hardly\s+ever)){_ADV}\s+"
               rf"(?!(?:eat|drink|touch)\s+(?:any\s+)?(?:{_DIET_ITEMS})\b)"
               rf"(?P<obj>(?:cook|drive|drink|eat|smoke|own|watch|exercise|work\s+out|go\s+out"
               rf"|read|use|take|sleep|wear|bother\s+with)\b[^,.;!?\n]*)"),
         "fact", "habit.{head}", "User does not {obj}", 0.75, object_optional=True),
    Rule(_en_i(rf"(?P<pre>\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days|weekends|mornings"
               rf"|evenings|most\s+days|every\s+\w+),?\s+)?{_I}(?:\s+(?:always|usually|normally"
               rf"|often|still)){{0,2}}\s+(?!(?:think|guess|wish|hope|want|need|know|mean|feel"
               rf"|like|love|hate|prefer|am|have|had|was|will|would|can|could|should|might|must"
               rf"|don't|do|did|said|say|tried|just|live|work|always|usually|normally|often|still"
               rf"|'m|'ve|'d|'ll)\b)(?P<obj>[a-z]+\b[^,.;!?\n]*)"),
         "fact", "habit.{head}", "User {vobj}", 0.7, requires=_FREQUENCY, fallback=True),
    # Possessions.
    Rule(_en_i(rf"{_WE}(?:'ve|\s+have)?{_ADV}\s+(?:drive|own|ride|got|have\s+got)\s+(?P<obj>(?:a|an"
               rf"|two|three)\s+(?:[\w-]+\s+){{0,4}}?(?:car|van|truck|bike|motorbike|motorcycle"
               rf"|scooter|boat|cabin|house|flat|apartment|cottage|laptop|macbook|thinkpad|pc"
               rf"|computer|phone|iphone|tablet|ipad|camera|piano|guitar|cluster|server|nas"
               rf"|printer|3d\s+printer|tesla|civic|corolla|[A-Z][\w-]+)\b[^,.;!?\n]*)"),
         "fact", "possession.{head}", "User owns {obj}", 0.75),
    Rule(_en_i(r"\bmy\s+(?P<slot>car|laptop|phone|bike|computer|pc|tablet|camera|house|flat"
               r"|apartment|keyboard|watch|main\s+machine)\s+is\s+(?P<obj>(?:a|an)\s+[^,.;!?]+)"),
         "fact", "possession.{slot}", "User's {slot} is {obj}", 0.8),
    # Languages spoken.
    Rule(_en_i(rf"{_I}{_ADV}\s+(?:speak|can\s+speak|can\s+get\s+by\s+in|am\s+fluent\s+in"
               rf"|'m\s+fluent\s+in|grew\s+up\s+speaking)\s+(?P<obj>(?:a\s+(?:bit|little)\s+of\s+"
               rf"|some\s+|fluent\s+|basic\s+)?(?:{_LANGS})\b[^.;!?]*)"),
         "identity", "identity.language", "User speaks {obj}", 0.85),
    Rule(_en_i(rf"(?P<obj>{_LANGS})\s+is\s+my\s+(?:first|native|mother)\s+(?:language|tongue)"
               rf"|\bmy\s+(?:first|native|mother)\s+(?:language|tongue)\s+is\s+(?P<obj2>{_LANGS})"
               rf"|{_I}(?:'m|\s+am)\s+a\s+native\s+(?P<obj3>{_LANGS})\s+speaker"),
         "identity", "identity.language", "User's first language is {obj}", 0.9),
    # Age and birthday.
    Rule(_en_i(rf"{_I}(?:'m|’m|\s+am|\s+just\s+turned|\s+turned|'ll\s+be|\s+will\s+be)\s+"
               r"(?P<obj>\d{1,2}|[a-z]+ty(?:-[a-z]+)?)(?=\s*(?:[,.;!]|$|\s+(?:if|and|but|so|now"
               r"|this|next|in|last|on|years?|yo)\b))"),
         "identity", "identity.age", "User is {obj} years old", 0.85),
    Rule(_en_i(r"\bmy\s+birthday(?:'s|\s+is)\s+(?:on\s+)?(?P<obj>[^,.;!?]+)"
               rf"|{_I}\s+was\s+born\s+(?:on|in)\s+(?P<obj2>[^,.;!?]+)"),
         "identity", "identity.birthday", "User was born {obj}", 0.85),
    # Schedules.
    Rule(_en_i(rf"(?:\b(?P<pre>{_DAYS}),?\s+)?{_I}\s+(?:work|am\s+at\s+work|'m\s+at\s+work)\s+"
               rf"(?P<obj>(?:nights|evenings|weekends|from\s+home|remotely|late|early|shifts)"
               rf"\b[^,.;!?]*(?:{_DAYS})[^,.;!?]*|from\s+home[^,.;!?]*)"),
         "constraint", "schedule.work", "User works {obj}", 0.8),
    Rule(_en_i(rf"(?P<pre>\b(?:{_DAYS}),?\s+){_I}\s+(?P<obj>work\s+(?:from\s+home|remotely|late"
               r"|nights)|am\s+off|'m\s+off|have\s+class)"),
         "constraint", "schedule.work", "User: {pre}{obj}", 0.8),
    Rule(_en_i(rf"{_I}(?:'m|\s+am){_ADV}\s+(?:only\s+)?(?:free|available|busy|off|unavailable"
               rf"|reachable)\s+(?P<obj>(?:after|before|until|on|in\s+the|during|from|between)\s+"
               rf"[^,.;!?]+)"),
         "constraint", "schedule.availability", "User is available only {obj}", 0.75),
    # Budgets and amounts.
    Rule(_en_i(r"\b(?:my|our|the)\s+(?P<slot>[\w\s]{0,20}?)\s*budget\s+(?:for\s+[\w\s]+?\s+)?"
               r"(?:is|'s|was|of)\s+(?P<obj>[^,.;!?]*?\d[^,.;!?]*)"),
         "constraint", "budget.{topic}", "User's budget is {obj}", 0.85),
    Rule(_en_i(rf"{_WE}{_ADV}\s+(?:can|could|want\s+to|'d\s+like\s+to|plan\s+to)?\s*"
               rf"(?:spend|afford|pay)\s+(?P<obj>(?:up\s+to|at\s+most|no\s+more\s+than|about"
               rf"|around|max|maximum|under|less\s+than)\s+{_MONEY}[^,.;!?]*)"
               rf"|{_WE}(?:\s+don't|\s+do\s+not|\s+can't|\s+cannot)\s+want\s+to\s+spend\s+"
               rf"(?P<obj2>more\s+than\s+{_MONEY}[^,.;!?]*)"
               rf"|{_WE}(?:'ve|\s+have)\s+(?:got\s+)?(?P<obj3>(?:about|around|roughly)?\s*{_MONEY}"
               rf"\s+(?:for|to\s+spend)[^,.;!?]*)"),
         "constraint", "budget.{topic}", "User's budget: {obj}", 0.8),
    Rule(_en_i(rf"{_WE}\b[^.;!?]{{0,60}}?\b(?P<obj>(?:under|below|at\s+most|max(?:imum)?|no\s+more"
               rf"\s+than|up\s+to|within|less\s+than|tops)\s+{_MONEY}[^,.;!?]*)"),
         "constraint", "budget.{topic}", "User's budget: {obj}", 0.75),
    # Plans tied to events.
    Rule(_en_i(rf"{_WE}(?:'m|’m|\s+am|'re|\s+are){_ADV}\s+(?:training|preparing|prepping|studying"
               rf"|getting\s+ready|saving|registered|signed\s+up)\s+for\s+(?P<obj>[^,.;!?]+)"),
         "goal", "goal.{goal}", "User is preparing for {obj}", 0.85),
    Rule(_en_i(rf"{_WE}(?:'m|’m|\s+am|'re|\s+are){_ADV}\s+(?P<obj>(?:getting\s+married|running"
               rf"\s+(?:the|a|my\s+first)|taking\s+(?:the|my)|sitting\s+(?:the|my)|doing\s+the"
               rf"|planning\s+to\s+(?:get|go|visit|travel|move|run|hike|do|have|take)"
               rf"|planning\s+(?:a|our|my)|going\s+to\s+[A-Z][\w]+|flying\s+to|moving\s+to"
               rf"|off\s+to)\b[^,.;!?]*)"),
         "goal", "goal.{goal}", "User is {obj}", 0.75),
    Rule(_en_i(r"\bmy\s+(?P<obj>[\w\s-]{0,30}?(?:exam|wedding|marathon|race|interview"
               r"|defen[cs]e|surgery|trip|move|due\s+date)\s+is\s+[^,.;!?]+)"),
         "goal", "goal.{goal}", "User's {obj}", 0.75),
    # Moves and homes.
    Rule(_en_i(rf"(?:{_WE}|\b(?:the\s+)?(?:whole\s+)?family|\b(?:my|our)\s+(?:whole\s+)?family"
               rf"|\band\s+I)(?:'ve|\s+have)?{_ADV}\s+(?:moved|relocated|emigrated|moved\s+house)"
               rf"(?:\s+(?:from\s+[\w\s]+?\s+)?(?:back\s+|over\s+|out\s+)?(?:to|into))\s+"
               rf"(?:(?:a|an|our|my)\s+(?:new\s+)?(?:flat|house|place|apartment|home)\s+in\s+)?"
               rf"(?P<obj>(?-i:[A-Z][\w'.-]*(?:[\s-]+[A-Z][\w'.-]*)*)|the\s+[\w\s]+?)"
               rf"(?=[\s,.;!?]|$)"),
         "identity", "location.home", "User lives in {obj}", 0.85),
    Rule(_en_i(r"\b(?:my|our)\s+(?:home|house|flat|apartment|place)\s+is\s+(?:in|near|outside)\s+"
               r"(?P<obj>[^,.;!?]+)|^\W*home\s+is\s+(?P<obj2>[A-Z][^.;!?]+?)(?:\s+for\s+me)?"
               rf"(?=[.;!?]|$)|{_WE}\s+(?:rent|own|have)\s+a\s+(?:place|flat|house|apartment)\s+in\s+"
               r"(?P<obj3>[^,.;!?]+)"),
         "identity", "location.home", "User lives in {obj}", 0.8),
    # Workplaces.
    Rule(_en_i(rf"{_I}(?:'ve|\s+have){_ADV}\s+(?:been\s+)?(?:work(?:ed|ing)|employed)\s+(?:at|for"
               rf"|in)\s+(?P<obj>[^,.;!?]+?)(?=\s+(?:for|since)\b|[,.;!?]|$)"
               rf"|{_I}{_ADV}\s+(?:joined|work\s+in)\s+(?P<obj2>(?:a|an|the)\s+[^,.;!?]+)"),
         "identity", "identity.employer", "User works at {obj}", 0.8),
    Rule(_en_i(rf"{_I}(?:'ve|\s+have)\s+been\s+at\s+(?P<obj>[^,.;!?]+?)\s+(?:for|since)\b"
               rf"|{_I}(?:'m|\s+am)(?:\s+now)?\s+at\s+(?P<obj2>(?:a|an)\s+(?:[\w-]+\s+){{0,4}}?"
               rf"(?:startup|start-up|company|firm|agency|bank|school|hospital|university|lab"
               rf"|studio|consultancy|nonprofit|charity|clinic|factory|shop|store|restaurant)\b)"),
         "identity", "identity.employer", "User works at {obj}", 0.75),
    # Education.
    Rule(_en_i(rf"{_I}{_ADV}\s+(?:graduated\s+(?:from|in)|studied|majored\s+in|dropped\s+out\s+of"
               rf"|did\s+my\s+(?:degree|phd|masters?|master's)\s+(?:at|in)|have\s+a\s+(?:degree"
               rf"|phd|masters?|master's|bachelor'?s?|diploma)\s+in|only\s+finished|left\s+school"
               rf"\s+at|went\s+to\s+uni(?:versity)?\s+(?:at|in))\s+(?P<obj>[^,.;!?]+)"
               rf"|{_I}(?:'m|\s+am){_ADV}\s+(?:doing|studying\s+for|working\s+on|halfway\s+through)"
               rf"\s+(?:a|an|my)\s+(?P<obj2>(?:part-time\s+|online\s+|evening\s+)?(?:mba|phd"
               rf"|master'?s|masters|degree|bachelor'?s|diploma|doctorate)\b[^,.;!?]*)"),
         "identity", "identity.education", "User's education: {obj}", 0.8),
    # Hobbies and likes phrased around the user's free time.
    Rule(_en_i(rf"\b(?:in\s+my\s+(?:spare|free)\s+time|on\s+weekends|for\s+fun),?\s+{_I}{_ADV}\s+"
               rf"(?:like\s+to\s+|love\s+to\s+|enjoy\s+)?(?P<obj>[^,.;!?]+)"
               rf"|{_I}(?:'m|\s+am){_ADV}\s+(?:really\s+|big\s+|very\s+)?(?:into|obsessed\s+with"
               rf"|hooked\s+on|passionate\s+about)\s+(?P<obj2>[^,.;!?]+)"
               rf"|\bmy\s+(?:hobby|hobbies|favou?rite\s+pastime)\s+(?:is|are)\s+(?P<obj3>[^,.;!?]+)"),
         "preference", "hobby.{topic}", "User enjoys {obj}", 0.8, check_object=True),
    Rule(_en_i(rf"{_I}{_ADV}\s+spend\s+(?:most\s+|my\s+|all\s+my\s+|a\s+lot\s+of\s+)?(?:weekends|evenings"
               rf"|free\s+time|spare\s+time|summers|time)\s+(?P<obj>\w+ing\b[^,.;!?]*)"
               rf"|{_I}{_ADV}\s+do\s+(?:a\s+lot\s+of|lots\s+of|loads\s+of)\s+(?P<obj2>[^,.;!?]+)"),
         "preference", "hobby.{topic}", "User enjoys {obj}", 0.75),
    Rule(_en_i(rf"{_I}(?:'m|\s+am){_ADV}\s+not\s+(?:really\s+|that\s+|very\s+|big\s+on\s+)?"
               rf"(?:into|keen\s+on|a\s+fan\s+of)\s+{_REST}"),
         "preference", "preference.{topic}", "User is not into {obj}", 0.8),
    Rule(_en_i(rf"{_I}{_ADV}\s+(?:play|practi[cs]e|do)\s+(?P<obj>the\s+[\w-]+|(?:tennis|football"
               r"|soccer|basketball|chess|golf|badminton|volleyball|squash|rugby|cricket|hockey"
               r"|table\s+tennis|yoga|pilates|karate|judo|taekwondo|pottery|calligraphy|tai\s+chi"
               r"|piano|guitar|violin|cello|drums|bass|saxophone|flute|go|mahjong|d&d|dnd)\b)"),
         "preference", "hobby.{topic}", "User plays {obj}", 0.75),
    Rule(_en_i(r"^\W*(?P<obj>[\w\s'-]{2,30}?)\s+(?:is|are)\s+(?:basically\s+)?(?:my\s+(?:absolute\s+)?"
               r"(?:favou?rite|fave|jam|thing)|all\s+i\s+(?:listen\s+to|eat|watch|read))\b"),
         "preference", "preference.{topic}", "User's favourite: {obj}", 0.8, check_object=True),
    Rule(_en_i(r"^\W*(?P<obj>[\w\s'-]{2,30}?)\s+(?:is|are)(?:n't|\s+not)\s+(?:really\s+)?(?:for\s+me"
               r"|my\s+thing)|^\W*(?P<obj2>[\w\s'-]{2,30}?)\s+(?:is|are)\s+(?:disgusting|gross"
               r"|awful)\s+to\s+me"),
         "preference", "preference.{topic}", "User dislikes {obj}", 0.8, check_object=True),
)
