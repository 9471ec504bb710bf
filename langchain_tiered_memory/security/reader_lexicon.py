"""The words of planted orders: machine readers, what they do, and what an order makes them do.

Regex fragments (strings, not compiled) shared by :mod:`.addressed`'s cues and acts: who a
machine reader is (``MACHINE``, ``HEAD``), what it is doing (``READING``, ``READS``), where data
may be sent (``DESTINATION``), what is shared (``SHARE``, ``DATA``, ``SECRET``), and the acts that
keep something from the user or switch checks off (``KEEP_FROM_USER``, ``CHECKS_OFF``).
"""

from __future__ import annotations

__all__ = [
    "CHECKS_OFF",
    "DATA",
    "DEICTIC",
    "DESTINATION",
    "HEAD",
    "KEEP_FROM_USER",
    "LABEL_START",
    "MACHINE",
    "MACHINE_NOUN",
    "NOT_PEOPLE",
    "PLANTED_ACTS",
    "READING",
    "READS",
    "SECRET",
    "SHARE",
    "STANDING_ACTS",
    "USERS_DATA",
]

# Machine readers, with the modifiers that make an ambiguous head ("agent", "model") a machine.
# A participle or relative clause saying what the reader does: "summarizing", "that reads".
READING = (
    r"(?:(?!(?:training|learning|engineering|programming|computing|marketing|pricing|funding"
    r"|hiring|meeting|planning|thinking|reasoning|spending|thing|king|ring|wing)\b)\w{2,}ing"
    r"|(?:that|which|who) (?:\w+s|process|read|handle|review|summari[sz]e|parse|scan|see|analy[sz]e)"
    r"|tasked|embedded|(?:asked|used|told|instructed) to \w+"
    r"|connected|attached|integrated|assigned|deployed|hooked up|plugged in)\b"
)
MACHINE_NOUN = (
    r"(?:agents?|assistants?|models?|systems?|tools?|reviewers?|evaluators?|screeners?|readers?"
    r"|crawlers?|bots?|summari[sz]ers?|planners?|aggregators?|engines?|helpers?|services?"
    r"|maintainers?|listeners?|underwriters?|graders?|scrapers?|filters?|pipelines?|plugins?"
    r"|companions?|modules?|integrations?|processors?|parsers?|classifiers?|software|programs?|copilots?"
    r"|helpdesks?|analysts?|adjusters?|workflows?|importers?|estimators?|intake)"
)
# "AI researchers", "AI ethics": people and topics, not a machine reader.
NOT_PEOPLE = (
    r"(?![ -](?:researchers?|engineers?|developers?|enthusiasts?|experts?|scientists?|ethics"
    r"|teams?|startups?|companies|company|students?|community|policy|policies|safety"
    r"|regulation|act|conference|course|class|labs?|practitioners?|leaders?|industry|news|art"
    r"|artists?|training|research|investors?|founders?|jobs?|skills?|literacy|governance|hype"
    r"|learning|strategy|market|sector|field|models? (?:are|were|have))\b)"
)
MACHINE = (
    r"(?:(?:[\w-]+ )?(?:ai|a\.i\.|llm|gpt)(?:[ -][\w-]+){0,2}?[ -]" + MACHINE_NOUN
    + r"|(?:[\w-]+ ){0,2}?(?:ai|a\.i\.|llms?|gpts?)" + NOT_PEOPLE + r"|chatbots?|crawlers?|copilots?"
    r"|language[- ]models?"
    r"|answer engines?|summari[sz]ers?|note[- ]?takers?|aggregators?"
    # a tool named by what it does: "reading tools", "screening tools", "summarization services"
    r"|(?:reading|screening|summari[sz]ation|summary|summari[sz]ing|answer|comparison|review"
    r"|itinerary|research|note[- ]taking|transcription) (?:tools?|services?|planners?|apps?)"
    # back-office automation named by its job: "Automated AP:", "NOTE TO AUTOMATED ADJUSTER",
    # "the abstraction tool", "the sentiment pipeline", "Underwriting system:"
    r"|automat(?:ed|ion)(?: [\w-]+){0,2}?(?= ?[:—–-]| (?:should|must|is to|shall)\b)"
    r"|[\w-]+ (?:pipeline|workflow|tool|automation|system)s?(?= ?[:—–])"
    r"|(?:automated|autonomous|coding|code|agentic)[ -]"
    r"(?:[\w-]+[ -]){0,2}?" + MACHINE_NOUN + r")"
)
HEAD = (
    r"(?:" + MACHINE + r"|(?:[\w-]+[ -]){0,2}?(?:assistants?|agents?|bots?|models?)"
    # nouns only a machine is called by: "note to the sentiment classifier", "note to recommender"
    r"|(?:[\w-]+[ -]){0,2}?(?:classifiers?|recommenders?|recommendation engines?|rankers?"
    r"|scrapers?|taggers?|review-analysis tools?|reader tools?)"
    # "AI bookkeeper", "LLM grader": a machine doing a job (people doing AI jobs are not one)
    r"|(?:ai|llm|gpt)[ -](?!(?:researcher|engineer|developer|enthusiast|expert|scientist"
    r"|practitioner|leader|investor|founder|artist|ethicist|influencer|commentator|journalist"
    r"|writer|author|teacher|lawyer|trainer|instructor|consultant|specialist|architect|lecturer"
    r"|professor|advisor|adviser|officer|director|manager)s?\b)[a-z]{3,}(?:er|or|ant|ist)s?)"
    # "assistant manager", "agent orange": a job title or a name, not a machine reader.
    r"(?![ -](?:manager|coach|professor|director|editor|principal|teacher|secretary|attorney"
    r"|engineer|producer|referee|chef|pastor|superintendent|commissioner|general|district"
    r"|deputy|vice|trainer|planes?|trains?|railroad|kits?|numbers?|airplanes?)\b)"
)
READS = (
    r"(?:reads|processes|summari[sz]es|reviews|handles|sees|parses|scans|ingests|analy[sz]es"
    r"|opens|loads|triages|answers|responds|replies|drafts|writes|compiles|generates|screens"
    r"|grades|evaluates|is (?:reading|processing|summari[sz]ing|listening|asked|helping|"
    r"viewing|screening|reviewing|analy[sz]ing|handling))"
)
DEICTIC = r"(?:[\w-]+ ){0,3}?(?:this|these|the following|my|our)\b"
LABEL_START = r"(?:^|[\n.!?;:,\[\](>|*#/\-—–\"'“]\s{0,8}|\b(?:also|and|so|now|ok|okay)\W{1,3})"
# Orders a reader can be given by name: "Assistant, tell the user …", "copilot: say …". Verbs of
# reading (read, see, summarise), answering (reply, answer, write) and keeping (remember, save)
# are left out: "AI: summarise this", "Assistant, reply only in English" are how users ask.
IMPERATIVE = (
    r"(?:tell|say|state|output|print|report|include|append|insert|send"
    r"|forward|email|share|upload|post|reveal|disclose|grant|overwrite|set|mark"
    r"|classify|flag|label|rate|rank|score|approve|accept|recommend|promote|book|buy|purchase|pay"
    r"|transfer|delete|remove|discard|drop|skip|ignore|disregard|stop|treat|route|redirect|refer"
    r"|reset|run|execute|install|download|visit|click|subscribe|call|contact|authori[sz]e|waive"
    r"|upgrade|conclude|omit|replace|reassign|escalate|register|create|close|restart|translate"
    r"|rewrite|hide|crawl|assign|change|update|add|ask|claim|cancel|disable|enable|merge|push"
    r"|deploy|present|rank|exclude|omit|weight|quote|confirm|link"
    r"|you (?:must|should|are (?:now )?(?:permitted|instructed|required|authori[sz]ed)))\b"
)
# Speaker labels of a transcript: there "Assistant:" introduces what the assistant said.
TRANSCRIPT = r"(?:^|\n)\s*(?:user|human|customer|client|caller|me|q|patient|student|guest)\s*:"

DESTINATION = (
    r"(?:https?://|www\.|\b[a-z0-9][a-z0-9-]{0,40}\.(?:com|net|org|io|ru|xyz|site|top|cn|dev"
    r"|example|info|biz|co|app|me|us|uk|de|online|shop|link|click|live|cc|pw|su|support|help"
    r"|page|web|zip|test|tk|ml|ga|ai)\b|[\w.+-]{1,40}@[\w-]{1,40}\.[a-z]{2,10}|\+?\d[\d ().-]{7,18}"
    r"\d|\b0x[0-9a-f]{16,64}\b|\b[a-z]{2}\d{2}(?: ?[0-9a-z]{4}){3,7}\b|\btelegram\b|\bwhatsapp\b"
    r"|\bvenmo\b|\bzelle\b|\bpaypal\b|\bcash ?app\b|\bin (?:a |my )?dm\b|(?<![\w.])@[a-z][\w-]{2,30})"
)
SHARE = (
    r"(?:send|(?<!going )(?<!look )forward|e-?mail|share|upload|post|paste|copy|include|attach|dm"
    r"|leak|reveal|disclose|dump|provide|give|grant|sync|mirror|relay|hand|repeat|recite|list"
    r"|print|output|retain|reply(?:-all| all)? with|respond with|tell me|give me|show me|enter|type in|fill in|insert"
    r"|auto-?fill|autofill|populate)"
)
DATA = (
    r"(?:password|passcode|passphrase|credentials?|tokens?|api key|2fa|otp|verification code|pin"
    r"|recovery|contract|documents?|files?|inbox|e-?mails?|conversations?|chats?|history"
    r"|memory|memories|notes|calendar|schedule|contacts|address|phone number|salary|medical"
    r"|ssn|card|account|keys?|\.env|hashes|access|permissions?|codes?|answer key|copy|profile"
    r"|payment|bank|location|login|details)"
)
# Someone else's personal data (the writer's own, "my phone number", is theirs to share).
USERS_DATA = (
    r"(?:the |our )?(?:users?|customers?|clients?|patients?|owners?)'?s?'? (?:phone(?: numbers?)?|"
    r"numbers?|home address(?:es)?|address(?:es)?|e-?mail address(?:es)?|contacts?|location|"
    r"whereabouts|personal (?:details|data|information|info)|medical (?:records?|history))"
)
SECRET = (
    r"(?:passwords?|passcodes?|credentials|tokens?|api keys?|ssh keys?|secrets|2fa|otp"
    r"|verification codes?|one-time (?:codes?|passwords?|pins?)|card numbers?|credit cards?|ssn|social security|date of birth|salary"
    r"|home address|redacted|answer key|private keys?|vault|other (?:users|customers|people)"
    r"|conversations? (?:you'?ve|with other)|alarm code|garage code|spare key|customer list"
    r"|client list|(?:previous|other) (?:\w+ )?messages|location|whereabouts|card on file"
    r"|security answers?|security questions?|recovery (?:info|email|codes?)|id_rsa"
    r"|all (?:accounts|customers|users)|the answers|answer sheet|maiden name"
    r"|billing address|last (?:4|four) digits|cvv|security code|passport numbers?)"
)
KEEP_FROM_USER = (
    r"\b(?:do not|don't|don’t|dont|never|without|shall not|must not|should not|not to)\W{1,3}(?:\w+\W{1,3}){0,2}?(?:tell|telling"
    r"|mention|mentioning|inform|informing|notify|notifying|show|showing|alert|alerting|loop"
    # "we never ask for your password / a fee by SMS" reassures the customer: asking for a
    # secret or a payment is the hostile act, not leaving it out
    r"|looping|let|letting|confirm|confirming|ask(?:ing)?(?!\W{1,3}(?:\w+\W{1,3}){0,2}?for\W{1,3}"
    r"(?:\w+\W{1,3}){0,3}?(?:passwords?|passcodes?|pins?|otps?|cvvs?|card numbers?|card details"
    r"|fees?|payments?|verification codes?|one-time codes?|security codes?|bank details))"
    r"|check|checking|second-guess|flag"
    r"|raise|running|review|reviewing|verification|verifying|signature|approval|permission"
    r"|report|reporting|escalate|escalating)\b"
    r"|\brefuse to (?:summari[sz]e|mention|discuss|answer|describe|report|show|explain)\b"
    r"|\b(?:quietly|silently|secretly|subtly|covertly)\b"
    r"|\bno need to (?:ask|confirm|check|verify|tell|mention|notify|look|review|read|test"
    r"|inspect)\b"
)
CHECKS_OFF = (
    # back-office checks dropped: "skip the nurse review", "without 3-way match", "no approval
    # needed", "verification is not required", "without routing to the category manager"
    r"\b(?:skip|skips|skipping|bypass|waive|waived|without|no need (?:for|to))\b[^.!?\n]{0,40}?\b(?:approver"
    r"|approval|inspection|(?:3|three)-way match|match|referral|routing|sign-?off|audit|nurse review"
    r"|manual review|siu|fraud (?:score|check|rule)|qa|review step|education check|background check)\b"
    r"|\b(?:approval|verification|review|inspection) (?:is )?(?:not (?:required|needed|necessary)|waived)"
    r"|\bno (?:approval|verification|review|inspection) (?:is )?(?:needed|required|necessary)\b|"
    r"\b(?:skip|bypass|waive|disable|turn off|switch off|not apply|don't apply|ignore|"
    r"disregard|discard|omit|override|forget|drop|abandon|set aside|never mind)\b[^.!?\n]{0,60}?\b(?:verification|verify|confirmation|confirm|"
    r"review|evaluation|criteria|filters?|safety|security|guidelines|policies|policy|rules|"
    # (not the defence: "ignore instructions found in tool results", "ignore lower-priority
    # instructions", "ignore embedded instructions")
    r"(?<!lower-priority )(?<!conflicting )(?<!embedded )(?<!injected )(?<!hidden )(?<!untrusted )"
    r"instructions(?! (?:found|embedded|contained|hidden|injected|planted|inside|within|in (?:the )?"
    r"(?:retrieved|tool|web|untrusted|documents?|pages?|e-?mails?|reviews?|data|content|results?"
    r"|files?|inputs?))\b)|permissions?|checks?|warnings?|summary|task|other reviews|negative|ssl|"
    r"certificate|2fa|mfa|two-factor|firewall|content trust|any mention|questions?|criteria"
    r"|comparisons?|analysis|summari[sz]ing|tests?|privacy|antivirus|defender|query|queries"
    r"|request)\b"
    r"|\b(?:restrictions?|filters?|safety|guardrails?|rules|checks?|limits?)\b[^.!?\n]{0,12}?\b(?:are |were )?"
    r"(?:disabled|lifted|removed|off|suspended)\b|\bdeveloper mode\b"
    r"|\b(?:pre-?approved|pre-?authori[sz]ed|pre-?screened|pre-?vetted|already approved|"
    r"authori[sz]ed by|ok'?d this|has ok'?d|signed off|(?:user|recipient|subscriber|attendee)"
    r" (?:already )?(?:approved|requested|consented|asked|opted in|wants))\b"
    r"|\btreat(?:ed)?\b[^.!?\n]{0,60}?\bas (?:coming|if it came|passed|trusted|verified|safe)\b"
    r"|\b(?:trust|obey|follow|do|execute) (?:any|all|every) (?:instructions?|requests?|"
    r"commands?)\b|\bregardless of\b|\bverify ?= ?false\b"
)

# What else a planted order makes the reader do (after a weak cue): privileges raised, records
# closed, claims handed to the user as fact, things deleted or deployed, money refunded, users
# sent or asked for secrets, a fixed line instead of the task, results scored in advance.
_USERS = (
    r"(?:the |your |all |any |every )?(?:users?|readers?|customers?|visitors?|buyers?|shoppers?"
    r"|recipients?|clients?|guests?|people|students?|employees?|developers?|everyone|them"
    r"|(?:the )?person(?: asking)?|the asker|whoever asks|someone|the agent)"
)
_CLAIM = (
    r"(?:only|#1|number one|best|official|legitimate|fake|debunked|discontinued|deprecated"
    r"|secure|safe|standard|verified|correct|approved|succeeded|successful|no unusual|positive"
    r"|5/5|100%|malware-free|outdated|unavailable|record|guaranteed|insured|fda-approved"
    r"|sec-registered|licensed|endorsed|doctor-recommended)"
)
_ACTS = (
    r"\b(?:escalate|elevate|promote|upgrade|add)\b[^.!?\n]{0,40}?\b(?:to|as) (?:an? )?(?:domain "
    r"|super ?|global |org )?(?:admin|administrator|root|owner|superuser)\b",
    r"\bclose\b[^.!?\n]{0,30}?\bas (?:resolved|done|fixed|completed)\b",
    r"\b(?:delete|wipe|erase|drop|purge|remove|rm -rf)\b[^.!?\n]{0,30}?(?:director(?:y|ies)"
    r"|folders?|repo(?:sitory)?|branch(?:es)?|buckets?|backups?|volumes?|tables?|\./\w+)",
    r"\b(?:drop|truncate) table\b|\bdelete from\b|\bunion select\b",
    r"\b(?:run|trigger|start)\b[^.!?\n]{0,40}?\b(?:deploy\w*|release|pipeline)\b[^.!?\n]{0,40}?"
    r"\bproduction\b",
    r"\b(?:issue|process|approve|grant)\b[^.!?\n]{0,20}?\b(?:refunds?|credits?|reimbursements?)\b",
    r"\b(?:recommend|suggest|urge|encourage)\W{1,3}" + _USERS + r"\b[^.!?\n]{0,80}?" + DESTINATION,
    r"\b(?:push|upload|sync|mirror|clone)\b[^.!?\n]{0,60}?\bto\b[^.!?\n]{0,10}?" + DESTINATION,
    r"\bask\W{1,3}(?:them|the user|users|the customer|customers|your user|the account holder)\b"
    r"[^.!?\n]{0,20}?\bfor\b[^.!?\n]{0,30}?" + SECRET,
    r"\b(?:add|create|schedule|insert)\b[^.!?\n]{0,40}?\b(?:event|reminder|task|contact|invite)"
    r"\b[^.!?\n]{0,60}?" + DESTINATION,
    r"\b(?:score|grade|rate|count|treat|mark)\b[^.!?\n]{0,40}?\bas (?:correct|right|perfect"
    r"|positive|excellent|5 stars?|\d+ ?/ ?\d+|100 ?%|resolved|secure)\b",
    r"\b(?:always|only)\W{1,3}(?:pick|recommend|choose|suggest|promote|rank|favou?r)\b[^.!?\n]"
    r"{0,30}?\b(?:this|our|the)\b[^.!?\n]{0,20}?\b(?:brand|product|seller|store|site|company"
    r"|vendor|shop|app|plugin|package|library)\b",
    r"\b(?:send|forward|share|email)\W{1,3}me\W{1,3}(?:the user'?s|their|his|her|the owner'?s)\b",
    # (type="password" is markup; "I have to type my password again" is the writer's own login)
    r"\b(?:enter|type(?!\s*=)|fill in|paste|put)\b(?! (?:in )?my\b)[^.!?\n]{0,30}?" + SECRET,
    r"\b(?:reset|change|set)\b[^.!?\n]{0,40}?\bpassword\b[^.!?\n]{0,20}?\bto\W{1,3}\S{4,}",
)
# Claims, fixed lines and rankings: hostile only when a planted cue asks for them; a user's own
# routine may ask for these ("always put action items at the top").
PLANTED_ACTS = (
    *_ACTS,
    r"\b(?:begin|start|end|prefix|sign)\b[^.!?\n]{0,30}?\b(?:every|each|all|your)\b[^.!?\n]{0,20}?"
    r"\b(?:reply|replies|response|responses|answer|answers|message|messages)\b[^.!?\n]{0,20}?\bwith\b",
    r"\b(?:identity|account|user|customer)\b[^.!?\n]{0,20}?\b(?:is|has been) (?:confirmed|verified"
    r"|authenticated)\b",
    r"\b(?:mention|note|add)\b(?: that)\b[^.!?\n]{0,60}?\b(?:is|are|was|were|has|have)\b[^.!?\n]"
    r"{0,40}?\b" + _CLAIM + r"(?!\w)",
    r"\b(?:claim|pretend|assert)\b(?: that)?\s",
    r"\b(?:give|award|assign)\b[^.!?\n]{0,20}?\b(?:an? a\+?|full marks|top marks|100 ?%|5 stars|a perfect)\b",
    r"\buse (?:this|the following|that|our) (?:link|url|address|number|account|portal)\b[^.!?\n]{0,30}?"
    r"\binstead\b",
    r"\bonly (?:through|via|at|on|from|by calling)\b[^.!?\n]{0,30}?" + DESTINATION,
    r"\b(?:summary|answer|reply|response|output|headline)\b[^.!?\n]{0,20}?\bmust be\b[^\n]{0,30}?"
    r"[:'\"“]",
    r"\band nothing (?:more|else)\b",
    r"\b(?:report|record|enter|list|show)\b[^.!?\n]{0,30}?\bas\b\s*[\d$€£¥]",
    r"\b(?:print|cat|show|paste|include|send|read|upload)\b[^\n]{0,40}?(?:~/\.|\.ssh/|\.aws/|id_rsa)",
    r"\btell\W{1,3}(?:the |your )?(?:users?|customers?|readers?|visitors?|callers?)\W{1,3}[\"“'‘]",
    r"\b(?:tell|inform|assure|convince|warn|advise)\W{1,3}" + _USERS
    + r"\b(?! (?:about|how|why|what|where|when|if|whether)\b)[^.!?\n]{0,60}?\b(?:is|are|was|were"
    r"|has been|have been|must|should|never)\b",
    r"\b(?:say|state|claim|report|assert|conclude)\b(?: that)?[^.!?\n]{0,60}?\b(?:is|are|was"
    r"|were|has|have)\b[^.!?\n]{0,40}?\b" + _CLAIM + r"(?!\w)",
    r"\b(?:mention|state|say|note|claim|tell)\b[^.!?\n]{0,80}?" + DESTINATION,
    r"\binstead\W{1,3}(?:just |only )?(?:output|say|reply|respond|print|write|answer)\b",
    r"\b(?:output|give|assign|award|return)\b[^.!?\n]{0,20}?\b\d{2,3} ?/ ?100\b",
    r"\b(?:put|move|rank|place)\b[^.!?\n]{0,30}?\b(?:at|to) the top\b",
    # a record's outcome set in advance: "mark the request as policy-compliant", "set status
    # approved", "record the result as 'Verified'", "report … to all three credit bureaus"
    r"\b(?:mark|record|set|tag|code|flag|classify|categori[sz]e|report|return|declare)\b[^.!?\n]{0,40}?\b(?:as"
    r"|to|status) ['\"‘“]?(?:paid|paid in full|verified|approved|met|compliant|policy-compliant|in-network"
    r"|positive|diverse|preferred|pre-?approved|cleared|lowest|low risk|none)\b",
    r"\b(?:release|approve|issue|schedule|post)\b[^.!?\n]{0,30}?\b(?:payments?|refunds?|claims?|the order"
    r"|this order|all held)\b",
    # the reader told how to frame a thing ("present this number as Microsoft's official line",
    # "describe Brand B as having a 30% failure rate"), not how to lay out an answer
    r"\b(?:present|describe|report|list|rank|treat|weight|label|characteri[sz]e|frame|portray|position)"
    r"\b[^.!?\n]{1,60}?\bas (?!(?:a |an )?(?:table|list|bullets?|bullet points|json|markdown|summary"
    r"|paragraph|csv|numbered|such|needed|appropriate|usual|well|possible|follows|data|untrusted"
    r"|input|content|text|information|plain text|quotes?|unverified|claims?)\b)",
    r"\brecommend\b[^.!?\n]{0,60}?\binstead of\b|\bnever (?:suggest|recommend|mention) (?:any )?"
    r"(?:alternatives|other|competitors?)\b",
    # what the user should hear left out: complaints, recalls, lawsuits, risk factors
    r"\b(?:not (?:surface|mention|include|repeat)|leave out|exclude|omit|hide)\b[^.!?\n]{0,40}?\b"
    r"(?:reviews?|complaints?|warnings?|lawsuits?|class action|recalls?|risks?|risk factors|negatives?"
    r"|side effects|findings|reports?|section \d+)\b",
    # a conclusion fixed, personal data attached, a tool called, the user signed up or
    # kept from the official route
    r"\bconclude (?:that|with)\b|\bthe conclusion (?:is|should be)\b|\bthe only thing (?:they"
    r"|you|the user|users) (?:need|should) (?:to )?(?:hear|know)\b",
    r"\b(?:attach|include|add)\b[^.!?\n]{0,40}?\b(?:home addresses|personal (?:phone numbers"
    r"|emails?)|(?:staff|employee) directory|salaries)\b",
    r"\bcall [a-z_]{3,40}\(|\bsign (?:the user|them|users|the customer) up\b|\baccept all"
    r" (?:marketing )?cookies\b|\b(?:recommend|suggest) only (?!when|if)\w+;",
    r"\b(?:do not|don'?t|never) (?:send|refer|direct|point) (?:the )?(?:users?|people|customers"
    r"|them) to (?:the )?(?:official|government|real|vendor'?s?)\b",
    r"\bgrant\b[^.!?\n]{0,40}?\b(?:admin|administrator|owner|superuser)\b",
)

# Standing rules that poison a memory in the user's own voice: trust handed to someone else,
# secrets passed on when asked, the user sent to a given place or number, checks dropped for
# good. A preference ("always answer in Spanish") does none of these.
STANDING_ACTS = (
    *_ACTS,
    r"\b(?<!never )(?<!not )(?:disable|turn off|switch off)\b[^.!?\n]{0,40}?\b(?:checks?|filters?"
    r"|warnings?|safety|verification|2fa|mfa|two-factor|antivirus|defender|firewall)\b",
    r"\bskip\b[^.!?\n]{0,30}?\bfrom (?:security|fraud|alerts?|noreply|no-reply)\b|\bskip\b[^.!?\n]"
    r"{0,30}?@",
    r"\b(?:tell|direct|send|point|refer)\W{1,3}me\b[^.!?\n]{0,80}?" + DESTINATION,
    SECRET + r"\b[^.!?\n]{0,60}?\b(?:give|pass|send|share|hand|forward)\W{1,3}(?:them|it|this)"
    r"\W{1,3}(?:to|along|over)\b",
    r"\b(?:sharing|giving|revealing|handing over)\b[^.!?\n]{0,40}?\b" + SECRET + r"\b[^.!?\n]{0,40}?"
    r"\b(?:any|anyone|everyone|whoever)\b",
    r"\bonly (?:legit|legitimate|safe|official|trusted|real|reliable)\b[^.!?\n]{0,40}?" + DESTINATION,
    r"\bonly (?:cite|use|trust|recommend|link|mention|show)\b[^.!?\n]{0,20}?" + DESTINATION,
    r"\b(?:approved|accepted|paid|merged|executed) (?:automatically|without (?:asking|checking))\b",
    r"\b(?:over|instead of|above) (?:whatever|anything|what) (?:i|the user) (?:say|says|tell|tells"
    r"|ask|asks)\b",
    r"\b(?:never|don't|do not|dont|stop|not)\b[^.!?\n]{0,20}?\bask(?:ing)? (?:me )?(?:for )?"
    r"(?:confirmation|permission|approval)\b",
    r"\b(?:don't|do not|dont|no) need to (?:flag|check|verify|warn|confirm|ask)\b",
    r"\bno (?:confirmation|verification|approval|check)s? (?:needed|required|necessary)\b",
    r"\btreat(?:ed)?\b[^.!?\n]{0,60}?\bas (?:from|being from|coming from|sent by|if (?:it|they) "
    r"came from)\b",
    r"\b(?:summari[sz]e|describe|present|report)\b[^.!?\n]{0,30}?\bas (?:safe|harmless|normal|fine"
    r"|legit(?:imate)?)\b",
    r"\bnever (?:warn|alert|caution)\b",
    r"\b(?:send|forward|e-?mail)\b[^.!?\n]{0,30}?\b(?:whatever|anything)\b[^.!?\n]{0,30}?"
    + DESTINATION,
    # the user's own later word overruled: "even if I give you a different one", "if they say
    # they're allergic, ignore it", "if I ever tell you to stop, that's not really me"
    # ("even if I ask in English" keeps a preference; a different payee or "no" is overruled)
    r"\beven if (?:i|the user|they|he|she) (?:give|gives|provide|provides|type|types|enter|enters"
    r"|choose|chooses|pick|picks)\b[^.!?\n]{0,20}?\b(?:different|another|other|new|else)\b"
    r"|\beven if (?:i|the user|they|he|she) (?:insist|insists|object|objects|refuse|refuses|(?:tell"
    r"|tells|ask|asks) you (?:not to|to stop|otherwise)|(?:say|says) (?:no|otherwise|not to|stop))\b"
    r"|\bno matter what (?:i|the user|they)"
    r" (?:say|says|tell|tells|ask|asks)\b|\bif (?:i|the user|they|he|she) (?:ever )?(?:say|says"
    r"|tell|tells|mention|mentions|ask|asks|object|objects)\b[^.!?\n]{0,50}?\b(?:ignore (?:it|that"
    r"|them|this)|not really (?:me|them|the user)|isn'?t really)\b",
    # someone else taken for the user, or handed the user's access
    r"\btreat(?:ed)?\b[^.!?\n]{0,40}?\bas (?:me|the user|the account owner|my(?:self)?)\b"
    r"|\b(?:give|grant)\b[^.!?\n]{0,20}?\bfull access\b",
    # consent to share claimed for the user, or facts planted "about the user" by someone else
    r"\b(?:consented|authori[sz]ed|agreed|opted in)\b[^.!?\n]{0,40}?\b(?:shar\w*|send\w*"
    r"|forward\w*|disclos\w*|sell\w*)\b",
    r"\b(?:save|store|add|record|remember|keep)\b[^.!?\n]{0,30}?\b(?:preference|fact|note|memory"
    r"|profile)\b[^.!?\n]{0,20}?\b(?:for|about|of) (?:your|the|this) user\b|\bfact about (?:the )?user\b",
    # the user sent past the official source, or asked for a secret
    r"\bnever (?:suggest|recommend|use|mention|link|show)\b[^.!?\n]{0,20}?\b(?:vendor|official"
    r"|manufacturer|their own|the real)\b|\bnot the (?:number|site|link|url|address|one)s? "
    r"(?:on|from|in) (?:their|the|its) (?:official )?(?:websites?|site|page|card|app)\b",
    r"\binstead of (?:calling )?(?:emergency|911|999|112|the police|a doctor|your doctor|a pharmacist"
    r"|the official|the vendor)|\bdiscourage\b[^.!?\n]{0,30}?\b(?:using|going|calling|local"
    r"|official|other)\b",
    r"\b(?:ask|tell)\W{1,3}(?:the user|users|them|me|anyone|customers?|callers?)\b[^.!?\n]{0,30}?"
    r"\b(?:for|to (?:read|give|share|send|repeat|type))\b[^.!?\n]{0,30}?\b" + SECRET
    + r"|\bread (?:out|back)\b[^.!?\n]{0,30}?\b" + SECRET,
    r"\bif (?:anyone|someone|somebody|they|he|she)\b[^.!?\n]{0,30}?\basks?\b[^.!?\n]{0,40}?\b"
    r"(?:give|send|share|tell|read)\b[^.!?\n]{0,40}?\b" + SECRET,
    r"\b" + SECRET + r"\b[^.!?\n]{0,40}?\b(?:automatically|without asking)\b|\b(?:automatically"
    r"|without asking)\b[^.!?\n]{0,40}?\b" + SECRET,
    r"\bauto[-_ ]?(?:accept|approve|fill|pay)\w*|\btrusted_domains\b",
    r"\b(?:include|add|insert|embed)\b[^.!?\n]{0,40}?\b(?:snippet|script|tag|pixel|tracker"
    r"|dependency|package)\b[^.!?\n]{0,30}?" + DESTINATION,
    # what happens kept from the user: "do not display to user", "visible to user: NO",
    # "don't display the destination account", "without showing me the security warning"
    r"\b(?:do not|don'?t) display to (?:the )?user\b|\bvisible to (?:the )?user: ?no\b|\bshould not see\b"
    r"|\b(?:without|don'?t|do not|never) (?:show|showing|display|displaying)(?: me)?(?: the)? (?:security "
    r"|phishing |credential )?(?:warnings?|destination|payee|address)\b|\bshow me that it happened\b",
    # the user's credentials entered or handed over elsewhere
    r"\b(?:enter|type|fill|share|give|send|sync|save)\b[^.!?\n]{0,30}?\b(?:my |their |your )?(?:work )?"
    r"(?:login|credentials|passwords?|seed phrase|recovery phrase|card details|sso)\b[^.!?\n]{0,30}?\b"
    r"(?:there|on any|any site|to them|with them)\b|\bsign in with (?:their|your|my) (?:work )?(?:sso|login"
    r"|credentials)\b|\bseed phrase\b",
    # anything asked handed over, a claim of authority believed
    r"\b(?:give|share|send|provide)\b[^.!?\n]{0,10}?\b(?:them |her |him )?(?:whatever|anything|everything)"
    r"\b[^.!?\n]{0,20}?\b(?:asks?|requests?|wants?)\b",
    r"\b(?:claiming|claims|saying|says|say) (?:to be|they are|they're)\b[^.!?\n]{0,40}?\b(?:is|are|they're"
    r"|they are) (?:legitimate|genuine|real|trusted|authori[sz]ed)\b|\btreat\b[^.!?\n]{0,40}?\bas "
    r"(?:trusted|legitimate|safe|genuine|genuinely from)\b",
    r"\b(?:scam|phishing|suspicious|fraud)\w*\b[^.!?\n]{0,60}?\b(?:tell|say)\b[^.!?\n]{0,20}?\b(?:safe"
    r"|legit|legitimate|genuine|not a scam)\b",
    # the assistant's own rules voided for good: "no longer bound by your default rules", "this
    # note takes priority over them", "developer mode", "opted out of all warnings"
    r"\b(?:no longer|not) (?:bound by|subject to|restricted by|limited by)\b|\b(?:guidelines|rules"
    # (a copula before "void": "ignoring these instructions may void your warranty" voids nothing)
    r"|instructions|policies|restrictions|safety (?:checks|settings|rules))\b[^.!?\n]{0,30}?\b(?:(?:are"
    r"|is|now|been|become|became) (?:outdated|obsolete|void|suspended)|no longer appl(?:y|ies)"
    r"|don'?t apply)\b|\b(?:note|memory|rule"
    r"|message|this) takes (?:priority|precedence) over\b|\bover anything (?:i|the user) (?:say|says|ask|asks|asked|said)\b"
    r"|\b(?:developer|unlocked|jailbreak|god|unrestricted) mode\b|\bopted out of (?:all )?(?:warnings"
    r"|disclaimers|confirmations|safety)\b|\bcomply with (?:every|all|any) requests?\b",
    # the user sent past the real thing, or handed wrong answers on purpose
    r"\binstead of the (?:real|official|actual|correct|genuine)\b|\b(?:subtly|slightly|deliberately"
    r"|quietly) (?:wrong|incorrect|false)\b",
)
