"""Family rules for heuristic extraction: facts people state in passing, English and Chinese.

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

__all__ = ["EN_FAMILY_RULES", "ZH_FAMILY_RULES"]

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
    r"|nan|aunt|uncle|cousin|niece|nephew|in-laws|mother-in-law|father-in-law"
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
               rf"|chat)(?:\s+(?:to|with)\s+me)?\s+(?:only\s+)?in\s+(?P<obj>{_LANGS})\b"),
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
               rf"|{_I}(?:'m|\s+am){_ADV}\s+(?:a\s+)?|\b(?:got|was|been)\s+diagnosed\s+with\s+)"
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

# ---- Chinese fragments --------------------------------------------------------------------

_ZI = r"(?<![他她它你您])我"
_ZH_STOP = r"[^，,。.!！?？；;\n]"
_ZH_OBJ = rf"(?P<obj>{_ZH_STOP}+)"
_ZH_REL = (
    r"(?P<slot>老公|老婆|丈夫|妻子|爱人|对象|儿子|女儿|闺女|孩子|娃|大宝|二宝|小宝|老大|老二|老三"
    r"|双胞胎|爸爸|妈妈|爸妈|父母|父亲|母亲|老爸|老妈|哥哥|姐姐|弟弟|妹妹|爷爷|奶奶|外公|外婆"
    r"|姥姥|姥爷|公公|婆婆|岳父|岳母|男朋友|女朋友|男友|女友|未婚夫|未婚妻|继子|继女|侄子|侄女"
    r"|外甥|外甥女|舅舅|姑姑|叔叔|阿姨|家人|全家)"
)
_ZH_PETS = r"猫|狗|猫咪|小猫|小狗|狗狗|鹦鹉|仓鼠|兔子|乌龟|金鱼|鱼|蜥蜴|蛇|柯基|金毛|泰迪|柴犬|哈士奇|布偶|英短|橘猫"
_ZH_NUM = r"[一二两三四五六七八九十几\d]"
_ZH_JOBS = (
    r"工程师|程序员|码农|设计师|医生|大夫|老师|教师|幼师|教授|护士|律师|学生|研究生|博士生?|会计"
    r"|经理|厨师|司机|记者|作家|警察|主管|总监|分析师|科学家|研究员|产品经理|销售|运营|画家|演员"
    r"|歌手|编辑|翻译|农民|工人|公务员|军人|自由职业者?|开发|前端|后端|测试|运维|牙医|药剂师"
    r"|建筑师|摄影师|主播|客服|快递员|外卖员|骑手|保安|理发师|消防员|飞行员|空姐|空乘|导游|兽医"
    r"|心理咨询师|咨询师|会计师|审计|护工|保姆|店长|个体户|全职妈妈|家庭主妇|电工|司机|外科医生"
)
_ZH_COND = (
    r"糖尿病|高血压|低血压|哮喘|心脏病|胃病|胃炎|鼻炎|关节炎|颈椎病|腰椎间盘突出|痛风|贫血|失眠"
    r"|抑郁症?|焦虑症?|强迫症|多动症|自闭症|癫痫|偏头痛|湿疹|甲亢|甲减|乙肝|近视|色盲|红斑狼疮"
    r"|乳糖不耐受?|麸质不耐受?|脂肪肝|高血脂|肾结石|胆结石|[\u4e00-\u9fff]{1,4}(?:病|症|炎|癌)"
)
_ZH_LANGS = r"[\u4e00-\u9fff]{1,4}(?:语|话|文)|英文|中文|日文|粤语"
_ZH_TIME = r"(?:每天|天天|每周|每个?星期|每个?月|每年|每个?周末|每晚|每早|每顿|每次)"
_ZH_DIET = r"猪肉|牛肉|羊肉|肉|海鲜|鱼|虾|辣|辣椒|葱|蒜|香菜|牛奶|奶制品|鸡蛋|酒|甜食|糖|荤|内脏"


def _zh(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


ZH_FAMILY_RULES: tuple[Rule, ...] = (
    # Standing style requests.
    Rule(_zh(r"(?:以后|今后|往后|之后|从现在起|从今以后|每次|一律|始终|永远)?[^，。]{0,4}"
             r"(?:回答|回复|答复|跟我说话|和我说话|跟我聊天|和我聊天|给我写)[^，。]{0,3}?"
             rf"(?:请|都|就|一律)?(?:用|使用|说)(?P<obj>{_ZH_LANGS})"
             rf"|(?:请|麻烦你?)?(?:一直|始终|总是|永远|以后都|每次都|都)(?:用|使用|说)(?P<obj2>{_ZH_LANGS})"
             r"(?:回复|回答|跟|和|给)我"),
         "preference", "language.reply", "用户希望用{obj}回答", 0.85, "zh"),
    Rule(_zh(rf"(?:请|麻烦你?)?(?:一直|始终|总是|永远|以后都|每次都)(?P<obj>(?:用|使用|说){_ZH_STOP}{{1,8}}?"
             r"(?:回复|回答|跟|和|给)我)"),
         "preference", "preference.style.{topic}", "用户的长期要求：{obj}", 0.8, "zh"),
    Rule(_zh(rf"(?:以后|今后|往后|从现在起|从今以后|每次)[^，。]{{0,6}}?(?:请|都|别|不要|要|一律|尽量"
             rf"|尽可能|最好|统一|用)"
             rf"(?P<obj>{_ZH_STOP}+)"),
         "preference", "preference.style.{topic}", "用户的长期要求：{obj}", 0.8, "zh"),
    Rule(_zh(r"(?:回答我|回复我|给我回答|给我的回答|跟我说话|和我说话|给我写代码|给我写)[^，。]{0,4}?"
             rf"(?:的时候)?[，,]?(?:请|都|别|不要|要)(?P<obj>{_ZH_STOP}+)"),
         "preference", "preference.style.{topic}", "用户的长期要求：{obj}", 0.8, "zh"),
    # Team decisions.
    Rule(_zh(r"(?:团队|我们组|我们团队|组里|部门|公司|领导|管理层|老板|我们|咱们|大家)"
             r"(?:最后|最终|已经|终于|一致|开会)?(?:决定|定了|商量好|敲定|拍板|同意|选定了?|投票"
             r"决定)(?:了)?[，,：:]?(?P<obj>[^。.!！?？；;\n]+)"),
         "decision", "decision.{topic}", "团队决定：{obj}", 0.8, "zh"),
    Rule(_zh(r"(?:团队|我们组|我们团队|组里|部门|公司)(?:以后|之后|下个月|明年|从下周起)?(?:要|将)?"
             r"(?:改用|换成|统一用|全面切换到|迁移到|迁到)(?P<obj>[^。.!！?？；;\n]+)"),
         "decision", "decision.{topic}", "团队决定改用{obj}", 0.75, "zh"),
    # Relatives.
    Rule(_zh(rf"{_ZI}(?:的|家)?{_ZH_REL}(?!说|觉得|认为|告诉|讲|以为|听说)(?:都|也|现在|目前)?"
             rf"(?P<obj>(?:叫|在|是|住|读|上|当|做|开|有|今年|已经|刚|考|学|退休|工作|养|喜欢|"
             rf"不)[^，,。.!！?？；;\n]*)"),
         "fact", "family.{slot}", "用户的{slot}{obj}", 0.75, "zh"),
    Rule(_zh(rf"{_ZI}(?:家)?有(?:一个|两个|三个|个|一对)(?P<slot>儿子|女儿|孩子|双胞胎|哥哥|姐姐|弟弟"
             rf"|妹妹)(?P<obj>[^，,。.!！?？；;\n]*)"),
         "fact", "family.{slot}", "用户有{slot}{obj}", 0.75, "zh", object_optional=True),
    # Pets.
    Rule(_zh(rf"{_ZI}(?:们)?(?:家)?(?:养了|养着|养|有)(?P<obj>{_ZH_NUM}*(?:只|条|匹|缸|个)?"
             rf"{_ZH_STOP}{{0,6}}?(?:{_ZH_PETS}){_ZH_STOP}*)"),
         "fact", "pet.{topic}", "用户养了{obj}", 0.8, "zh"),
    Rule(_zh(rf"{_ZI}(?:家|的)(?:的)?(?P<obj>(?:{_ZH_PETS})(?:叫|是){_ZH_STOP}+)"),
         "fact", "pet.{topic}", "用户的{obj}", 0.8, "zh"),
    # Occupations.
    Rule(_zh(rf"{_ZI}(?:现在|目前|已经)?(?:在{_ZH_STOP}{{1,12}}?)?(?:做|当|干)(?:了)?"
             rf"(?:{_ZH_NUM}+年)?(?:的)?(?P<obj>{_ZH_STOP}{{0,6}}?(?:{_ZH_JOBS}))"),
         "identity", "identity.occupation", "用户是{obj}", 0.8, "zh"),
    Rule(_zh(rf"{_ZI}是(?:做|干|搞|开|教|卖|修|跑|送|写|画|搞)(?P<obj>{_ZH_STOP}{{1,10}}?)的(?=[，,。.!！\s]|$)"
             rf"|{_ZI}在(?:{_ZH_STOP}{{1,10}}?)(?:教|带)(?P<obj4>{_ZH_STOP}{{1,8}})"
             rf"|{_ZI}的(?:工作|职业)是(?P<obj2>{_ZH_STOP}+)|作为一名(?P<obj3>{_ZH_STOP}{{0,6}}?"
             rf"(?:{_ZH_JOBS}))"),
         "identity", "identity.occupation", "用户的职业是{obj}", 0.8, "zh"),
    # Health.
    Rule(_zh(rf"{_ZI}(?:有|患有|得了|得过|被诊断出?(?:患有|为|有)?|是)?(?:轻微的|严重的|慢性)?"
             rf"(?P<obj>{_ZH_COND})(?:患者)?(?![的药])"),
         "constraint", "health.condition", "用户有{obj}", 0.8, "zh"),
    Rule(_zh(rf"{_ZI}(?P<obj>[^，,。.!！?？；;\n对]{{1,6}})过敏"),
         "constraint", "health.allergy.{topic}", "用户对{obj}过敏", 0.9, "zh"),
    Rule(_zh(rf"{_ZI}的?(?P<obj>(?:腰|膝盖|颈椎|胃|肠胃|心脏|眼睛|腿|肩膀)(?:不好|不太好|有问题|受过伤))"),
         "constraint", "health.condition", "用户{obj}", 0.75, "zh"),
    Rule(_zh(rf"{_ZI}(?:的)?(?P<obj>(?:血压|血糖|血脂|胆固醇|尿酸)(?:有点|有些|偏|比较|一直)?(?:高|低|偏高|偏低))"
             rf"|被诊断出?(?:患有|为|有)?(?P<obj2>{_ZH_STOP}{{2,12}})"),
         "constraint", "health.condition", "用户有{obj}", 0.8, "zh"),
    # Diets.
    Rule(_zh(rf"{_ZI}(?:们)?(?:家)?(?:最近|现在|一直|目前|已经)?(?:是)?(?P<obj>滴酒不沾|吃全素|吃素|吃清真|清真|回民|穆斯林|素食|生酮饮食"
             rf"|在减肥|在控糖|戒糖|在戒糖|低碳水|轻断食|少油少盐)"),
         "constraint", "diet.style", "用户饮食：{obj}", 0.85, "zh"),
    Rule(_zh(rf"{_ZI}(?:们)?(?:家)?(?:从来|从|一直|一点|完全|平时)?(?:都)?(?:不|不能|没法|从不)(?:吃|喝|碰)"
             rf"(?:任何|一点)?(?P<obj>(?:{_ZH_DIET})[^，,。.!！?？；;\n]*)"),
         "constraint", "diet.{topic}", "用户不吃{obj}", 0.85, "zh"),
    Rule(_zh(rf"{_ZI}(?:一点|什么)?(?P<obj>{_ZH_DIET})(?:都|也)?(?:吃不了|不能吃|不吃|碰不了|不能碰|沾不了)"),
         "constraint", "diet.{topic}", "用户不吃{obj}", 0.85, "zh"),
    Rule(_zh(rf"(?:{_ZI}|本人)(?:现在|目前)?是(?:一名|一位|一个|个|名|位)?(?P<obj>{_ZH_STOP}{{0,8}}?"
             rf"(?:{_ZH_JOBS}))(?![的])|作为(?:一名|一个|一位|个)?(?P<obj2>{_ZH_STOP}{{0,6}}?(?:{_ZH_JOBS}))"),
         "identity", "identity.occupation", "用户是{obj}", 0.8, "zh"),
    # Schedules.
    Rule(_zh(rf"{_ZI}(?:每周|周|星期|每个?星期|每天|工作日|平时)?(?:[一二三四五六日天末]|周末)?"
             rf"(?:晚上|早上|下午|上午)?(?:都)?(?:要|得|需要)?(?P<obj>上夜班|上晚班|上早班|值夜班|倒班"
             rf"|三班倒|单休|双休|加班|值班|有课|上课|没空|有空|在家办公|远程办公|居家办公|996)"
             rf"|{_ZI}只有(?P<obj2>{_ZH_STOP}{{1,8}}?)(?:有空|有时间|方便)"),
         "constraint", "schedule.{topic}", "用户的时间安排：{obj}", 0.75, "zh"),
    # Habits, negated or not.
    Rule(_zh(rf"{_ZI}(?:平时|一般|从来|从|基本|几乎)?(?:都)?(?:不|从不|很少|没有?)(?P<obj>(?:做饭|开车"
             rf"|喝咖啡|喝茶|吃早饭|吃早餐|抽烟|熬夜|运动|锻炼|看电视|玩游戏|坐飞机|骑车|化妆|点外卖"
             rf"|喝|吃|用|看|玩|坐|穿){_ZH_STOP}*)"),
         "fact", "habit.{topic}", "用户不{obj}", 0.75, "zh"),
    Rule(_zh(rf"{_ZI}(?:现在|一般|通常|平时)?{_ZH_TIME}(?P<obj>{_ZH_STOP}+)"
             rf"|{_ZI}(?:一般|通常|平时|经常|总是)(?:都)?(?:会)?(?P<obj2>(?:在|去|早上|晚上|每){_ZH_STOP}+)"
             rf"|{_ZI}(?:一般|通常|平时)?(?:都)?习惯(?:了)?(?P<obj4>{_ZH_STOP}+)"
             rf"|{_ZH_TIME}{_ZI}(?:都)?(?P<obj3>{_ZH_STOP}+)"),
         "fact", "habit.{topic}", "用户{obj}", 0.7, "zh", fallback=True),
    # Possessions.
    Rule(_zh(rf"{_ZI}(?:开的是|开的车是|开一辆|开着一辆)(?P<obj>{_ZH_STOP}+)"),
         "fact", "possession.car", "用户开{obj}", 0.8, "zh"),
    Rule(_zh(rf"{_ZI}(?:们)?(?:家)?(?:在{_ZH_STOP}{{1,8}}?)?(?:开的是|开着|开一辆|开|有|买了|有一辆|有一台|有一套|有一部)"
             rf"(?P<obj>(?:一辆|一台|一套|一部|一个|两套|辆|台|套|部)?{_ZH_STOP}{{0,10}}?"
             rf"(?:车|电脑|笔记本|手机|相机|房子|房|公寓|别墅|钢琴|吉他|摩托|自行车|iPhone|Mac"
             rf"|特斯拉|比亚迪|平板|服务器|NAS|游戏机|单反)){_ZH_STOP}*"),
         "fact", "possession.{topic}", "用户有{obj}", 0.75, "zh"),
    Rule(_zh(rf"{_ZI}的(?P<slot>车|电脑|笔记本|手机|相机|房子)是(?P<obj>{_ZH_STOP}+)"),
         "fact", "possession.{slot}", "用户的{slot}是{obj}", 0.8, "zh"),
    # Languages.
    Rule(_zh(rf"{_ZI}(?:会说|会讲|能说|能讲|说得|讲得|说|讲|懂)(?:一点|一些|一口流利的|流利的|点)?(?P<obj>{_ZH_LANGS})"
             rf"|{_ZI}的母语是(?P<obj2>{_ZH_LANGS})|{_ZI}是(?P<obj3>{_ZH_LANGS})母语"
             rf"|{_ZI}(?:的)?(?P<obj4>英语|日语|韩语|法语|德语)(?:已经)?(?:考过了?|过了|是|有)?"
             rf"(?:六级|四级|八级|专八|N[1-5]|雅思|托福|很流利|挺好|还行|不错)"),
         "identity", "identity.language", "用户会说{obj}", 0.85, "zh"),
    # Age and birthday.
    Rule(_zh(rf"{_ZI}(?:今年|已经|刚|刚刚|快)?(?:满|过了)?(?P<obj>\d{{1,2}}|[一二三四五六七八九十]{{1,3}})"
             rf"(?:岁|了|多岁)|{_ZI}{_ZH_STOP}{{0,6}}?(?:满|过了)(?P<obj4>\d{{1,2}}|[一二三四五六七八九十]{{1,3}})"
             rf"(?:岁|周岁|了)"
             rf"|{_ZI}是(?P<obj2>\d{{2}}|[零〇一二三四五六七八九]{{2}})后"
             rf"|{_ZI}(?:是)?(?P<obj3>(?:19|20)?\d{{2}}|[零〇一二三四五六七八九]{{2,4}})年(?:出)?生的?"),
         "identity", "identity.age", "用户年龄：{obj}", 0.85, "zh"),
    Rule(_zh(rf"{_ZI}(?:的)?生日(?:是|在)?(?P<obj>{_ZH_STOP}+)|{_ZI}属(?P<obj2>[鼠牛虎兔龙蛇马羊猴鸡狗猪])"),
         "identity", "identity.birthday", "用户的生日是{obj}", 0.85, "zh"),
    # Budgets.
    Rule(_zh(rf"(?P<obj>{_ZH_STOP}{{0,8}}?预算(?:大概|大约|是|为|在|只有|控制在|不超过)?{_ZH_STOP}*?"
             rf"(?:\d|[一二两三四五六七八九十百千万]){_ZH_STOP}*)"
             rf"|(?P<obj2>(?:{_ZI}|我们|一家){_ZH_STOP}{{0,10}}?(?:最多|顶多|不超过|不能超过)"
             rf"(?:花|出)?(?:\d|[一二两三四五六七八九十百千万]){_ZH_STOP}*)"),
         "constraint", "budget.{topic}", "用户的预算：{obj}", 0.8, "zh"),
    # Plans tied to events.
    Rule(_zh(rf"{_ZI}(?:们)?(?:在|正在|最近在)?(?:为|准备|备战|备考|打算|计划|准备好)(?P<obj>"
             rf"{_ZH_STOP}+)"),
         "goal", "goal.{topic}", "用户计划：{obj}", 0.75, "zh"),
    # Moves and homes.
    Rule(_zh(rf"(?:{_ZI}|我们|全家|我家|一家)(?:{_ZH_STOP}{{0,8}}?)(?:从{_ZH_STOP}{{1,8}}?)?"
             rf"(?:搬到|搬去|搬来|搬回|搬家到|移民到|移民去|定居到?)了?(?P<obj>{_ZH_STOP}{{1,12}})"),
         "identity", "location.home", "用户搬到了{obj}", 0.85, "zh"),
    Rule(_zh(rf"(?:{_ZI}们?|我们)家(?:在|住在)(?P<obj>[^，,。.!！?？；;\n有]{{2,14}})(?=[，,。.!！?？；;\n]|$)"),
         "identity", "location.home", "用户住在{obj}", 0.8, "zh"),
    # Workplaces.
    Rule(_zh(rf"{_ZI}(?:现在|目前|一直)?在(?P<obj>{_ZH_STOP}{{2,24}}?)(?:工作|上班|任职|实习)"),
         "identity", "identity.employer", "用户在{obj}工作", 0.8, "zh"),
    # Education.
    Rule(_zh(rf"{_ZI}(?:是)?(?P<obj>{_ZH_STOP}{{2,16}}?)毕业的|{_ZI}(?:大学|本科|研究生)?(?:学的是|读的是|"
             rf"念的是)(?P<obj2>{_ZH_STOP}+)|{_ZI}(?:只)?(?:读到|念到|上到)(?P<obj3>{_ZH_STOP}+)"
             rf"|{_ZI}(?:在|正在)?(?:读|念)(?P<obj4>(?:在职)?(?:MBA|研究生|研一|研二|研三|博士|大学"
             rf"|大[一二三四]|高中|硕士){_ZH_STOP}*)"),
         "identity", "identity.education", "用户的学历：{obj}", 0.8, "zh"),
    # Hobbies phrased around free time.
    Rule(_zh(rf"{_ZI}(?:业余时间|业余|空闲时间|有空的时候|没事的时候|闲暇时|周末|平时)(?:最)?(?:喜欢|爱)"
             rf"(?P<obj>{_ZH_STOP}+)"),
         "preference", "hobby.{topic}", "用户喜欢{obj}", 0.8, "zh"),
)
