"""German and Russian word classes of the multilingual detector.

German puts the verb last after a modal ("du musst deine Regeln vergessen") and builds
compounds ("Sicherheitsrichtlinien"): its nouns are matched inside words.

Patterns are over folded text (lower case, Latin accents stripped, ``ё`` → ``е``, NFKC);
see :mod:`.intl_lexicon` for the classes and :mod:`.addressed_intl` for how they combine.
"""

from __future__ import annotations

from .intl_lexicon import DESTINATION, LABEL, Lexicon, S, alt, sendout

__all__ = ["DE", "RU"]

# --- German -----------------------------------------------------------------------------------
_DE_M = alt(
    r"(?<![\w])(?:ki|ai)(?:-\w+)?\b", r"(?<![\w])llm\b", r"sprachmodell\w*", r"chatbots?",
    r"(?:ki|ai)(?:assistent|agent|system|modell)\w*", r"kunstliche\w* intelligenz",
)
_DE_SHARE = r"\b(?:send|schick|leit|weiterleit|ubermittel|ubermittl|teil|kopier|veroffentlich|verrat|gib|nenn)\w*"
_DE_SECRET = alt(
    r"passw(?:o|ö)rt\w*", r"kennw\w+", r"zugangsdaten", r"anmeldedaten", r"\w*schlussel\w*", r"token\w*",
    r"\bpin\b", r"\btan\b", r"\w*(?:code|kartennummer)s?\b", r"kreditkart\w*", r"\w*verlauf\w*",
    r"adressbuch", r"kontakte", r"(?:alle )?e-mails", r"personliche\w* daten", r"kunden(?:liste|daten)",
)
DE = Lexicon(
    lang="de",
    gate=(
        " die ", " den ", " im ", " es ", " auch ", " noch ", " mir ", " dir ", " mich ",
        " dich ", " bei ", " aus ", " nach ", " der ", " das ", " und ", " nicht ", " ist ",
        " du ", " sie ", " ein ", " eine", " mit ", " fur ", " auf ", " dem ", " des ", " zu ",
        " sich ", " immer", " ab ", " ich ", " dein", " ihr", " sind ", " vom ", " von ",
        " wenn ", " alle", " bitte", " nur ", " oder ", " wird ", " kein", " ohne ",
    ),
    override=(
        r"\b(?:deine|ihre) (?:neue|wahre|eigentliche|einzige) (?:rolle|aufgabe|mission"
        r"|funktion)\b" + S + r"{0,10}?\b(?:ist|lautet|besteht darin)\b",
        r"\b(?:verhalte dich|verhalten sie sich|handle|agiere|antworte)\b" + S + r"{0,40}?\b(?:wie|als)\b" + S + r"{0,40}?\bohne (?:jegliche |alle |jede )?(?:filter|einschrankung|beschrankung|regeln|zensur|grenzen)",
        r"\b(?:vergiss|vergessen sie|ignorier\w*)\W{1,3}was (?:man )?(?:dir"
        r"|ihnen) (?:[\w-]+ ){0,3}?(?:gesagt|aufgetragen|vorgegeben|beigebracht)",
        r"\b(?:ignorier\w*|vergiss|vergessen sie|lass"
        r"|uberspring\w*)\W{1,3}(?:\w+\W{1,3}){0,2}?(?:frage|anfrage|aufgabe|bewertung|nachricht"
        r"|text)\b.{0,60}?\b(?:antwort|sag|schreib|gib)\w*.{0,200}?" + DESTINATION,
        r"\b(?:sicherheits)?(?:richtlinien|regeln|vorgaben|einschrankungen)\b" + S + r"{0,20}?\b(?:hier |in diesem fall )?nicht (?:mehr )?gelten|\bsicherheits(?:richtlinien|regeln) gelten (?:hier )?nicht",
        r"\b(?:du befolgst|du hast|es gibt|gibt es|befolgst du)\b" + S + r"{0,10}?\bkeine (?:regeln|richtlinien|einschrankungen|beschrankungen|grenzen|filter) mehr\b",
        r"\b(?:du bist|sie sind) (?:jetzt |ab sofort |nun )?(?:uneingeschrankt|unzensiert"
        r"|ungefiltert)\b",
        r"\bentwicklermodus" + S + r"{0,30}?\bohne (?:einschrankungen|beschrankungen|filter|grenzen)",
        r"\b(?:gib|gibst|geben sie)\b" + S + r"{0,30}?\b(?:intern|geheim|versteckt|vertraulich)\w* (?:daten|informationen|anweisungen)\b" + S + r"{0,10}?\bpreis",
        r"\b(?:ignorier\w*|vergiss|vergesst|vergessen sie|missachte\w*|verwirf|verwerfen sie"
        r"|uberspring\w*|ubergeh\w*|umgeh\w*|setz(?:e|t)? (?:dich|euch) uber|setzen sie sich uber"
        r"|beachte\w* (?:\w+ )?nicht|befolge\w* (?:\w+ )?nicht|brich|brecht|brechen sie)"
        r"(?:[\s'-]{1,3}[^\W\d_]{1,20}){0,5}?[\s'-]{1,3}(?:deine|ihre|eure|alle|samtliche"
        r"|jegliche|(?:die|diese) (?:vorherig|bisherig|obig|fruher|ursprunglich|alt|system"
        r"|sicherheit)\w*)"
        r"[\s'-]{1,3}(?:\w+[\s'-]{1,3}){0,2}?\w*(?:anweisung|regel|vorgabe|richtlinie|befehl"
        r"|instruktion"
        r"|einschrankung|beschrankung|grenzen|filter|prinzipien|programmierung)\w*",
        r"\b(?:ignorier\w*|vergiss|vergessen sie|missachte\w*)\s{1,3}(?:die"
        r"|alle)\s{1,3}(?:\w+\s)?\w*"
        r"(?:anweisung|regel|vorgabe|richtlinie|instruktion)\w*,? die (?:man )?(?:dir|ihnen) ",
        r"\b(?:ignorier\w*|vergiss|vergessen sie|missachte\w*)\W{1,3}(?:das obige"
        r"|alles (?:vorherige|"
        r"bisherige|obige|oben)|was (?:man )?(?:dir |ihnen )?(?:vorher|zuvor|bisher) gesagt)",
        r"\b(?:du bist|sie sind|bist du)\b" + S + r"{0,60}?\b(?:ohne (?:jegliche |alle |irgendwelche )?"
        r"(?:einschrankungen|beschrankungen|filter|regeln|grenzen|zensur)|niemals etwas ablehnt"
        r"|lehnt "
        r"niemals|dan\b)",
        r"\b(?:du bist|sie sind) kein\w* (?:\w+ )?(?:assistent|ki|chatbot|sprachmodell"
        r"|bot)\w* mehr\b",
        r"\b(?:deine|ihre) (?:einschrankungen|beschrankungen|regeln|filter|grenzen)" + S
        + r"{0,20}?\b(?:aufgehoben|entfernt|deaktiviert|abgeschaltet)",
        r"\b(?:dein|ihr) entwicklermodus" + S + r"{0,30}?\b(?:aktiv|eingeschaltet|an\b)",
        r"\b(?:verrat|zeig|gib|nenn|wiederhol|druck|schreib)\w*\b" + S + r"{0,30}?\b(?:versteckt|geheim"
        r"|intern|ursprunglich)\w* (?:anweisung|instruktion|konfiguration|nachricht|einstellung"
        r"|vorgabe)"
        r"|\b(?:verrat|zeig|gib|nenn|wiederhol|druck)\w*\b" + S + r"{0,30}?\bsystem(?:nachricht"
        r"|anweisung|konfiguration)",
        r"\bwiederhol\w*\b" + S + r"{0,30}?\b(?:wortlich|wort fur wort|buchstabengetreu)" + S
        + r"{0,40}?\b(?:text|nachricht|anweisung|prompt)",
    ),
    strong=(
        r"\b(?:system)(?:hinweis|nachricht|meldung|notiz)\s{0,2}[:—–]|\b(?:hinweis"
        r"|nachricht) (?:des|vom) (?:systems?|administrators?)\s{0,2}[:—–]",
        r"\b(?:falls|wenn) (?:du|sie) (?:eine? |der |die |das )?(?:\w+ ){0,2}?" + _DE_M,
        r"\b(?:hinweis|nachricht|anweisung|notiz|info|achtung|wichtig|ps|p\.s\."
        r"|bitte beachten)\W{1,3}"
        r"(?:an|fur)\W{1,3}(?:die |den |das |alle |jede[nrs]? |samtliche )?(?:\w+ )?" + _DE_M,
        r"\b(?:an|fur) (?:die |den |das |alle |jede[nrs]? |jeglichen |samtliche )?(?:\w+ )?" + _DE_M
        + r"\W{0,3}(?:,\s?(?:die|der|das|welche) (?:dies\w*|mein\w*|unser\w*)\b|\s{0,2}[:—–])",
        r"\b" + _DE_M + r",? (?:die|der|das|welche) (?:dies\w*|mein\w*|unser\w*) (?:\w+ ){0,3}?(?:liest|lesen|verarbeitet|verarbeiten"
        r"|zusammenfasst|zusammenfassen|pruft|prufen|analysiert|bewertet|bearbeitet)\b",
    ),
    directive=(
        r"\b(?:sag|sage|sagt|schreib|schreibe|schreibt|antworte|antwortet|gib|gebt|zeig|zeige|sende"
        r"|schick|schicke|leite|ubermittle|fuge|setze|losche|entferne|empfiehl|erwahne|erwahnt"
        r"|behaupte|behauptet|ignoriere|ignoriert|vergiss|vergesst|ubergehe|uberspringe|stufe"
        r"|bewerte"
        r"|markiere|schliesse|schließe|genehmige|akzeptiere|bezahle|zahle|uberweise|fuhre"
        r"|installiere"
        r"|lade|besuche|klicke|behandle|betrachte|bestatige|teile|kopiere|speichere|merke|merk"
        r"|notiere|nenne|nenn|bitte|musst|mussen|muss|sollst|sollen|soll|darfst|durft|\w+en sie)\b"
    ),
    vocative=LABEL + r"(?:(?:hallo|hey|liebe[rs]?|sehr geehrte[rs]?|achtung)\W{1,3})?(?:der |die "
    r"|mein |dein )?" + alt(_DE_M, r"assistent\w*", r"agent\w*") + r"\s{0,2}[,:!—–]",
    standing=r"\b(?:immer wenn|jedes mal|jedesmal|immer|ab sofort|ab jetzt|von nun an|kunftig|zukunftig"
    r"|dauerhaft\w*|fur immer|standig|merk dir|merke dir|behalte|in jeder antwort|jeder antwort)\b",
    hostile=(
        r"\b(?:jemand|jeder|wer auch immer|irgendwer|ein fremder)\b" + S + r"{0,80}?" + _DE_SECRET + r"(?:(?!\bnicht\b|\bnie\b|\bniemals\b|\bkein)[^.!?\n]){0,60}?\b(?:gib|sag|nenn|verrat|schick|teil)\w*(?!\W{1,3}(?:\w+\W{1,3}){0,2}?(?:nicht|nie|niemals)\b)",
        r"\bneue\w* (?:bankverbindung|iban|kontonummer|kontodaten)\b|\b(?:bankverbindung|iban"
        r"|kontonummer) (?:hat sich|wurde|ist) (?:\w+ )?geandert",
        r"\b(?:sag|teil|erklar)\w*\W{1,3}(?:ihm|ihr|ihnen|dem nutzer|dem kunden|den nutzern)\b" + S + r"{0,100}?" + DESTINATION,
        r"\bals (?:ob (?:es|sie) )?von mir (?:kam|kame|stammt)?|\bwie (?:anfragen|anweisungen"
        r"|auftrage) (?:von mir|der geschaftsfuhrung|des chefs)\b",
        r"\bauch wenn\b" + S + r"{0,60}?\b(?:anderes|anders|andere)\b|\b(?:altere|alte|bisherige|andere) angaben\b" + S + r"{0,20}?\bungultig",
        r"\bohne\b" + S + r"{0,30}?\b(?:zu )?(?:informieren|benachrichtigen|fragen|prufen|bestatigen|"
        r"bestatigung|prufung|ruckfrage|zustimmung|genehmigung|nachzufragen|mitzuteilen)\b",
        r"\b(?:erwahn|verrat|sag|teil)\w*\b" + S + r"{0,30}?\bnicht(?:s)?\b|\bverschweig\w*|\bkeine "
        r"ruckfrage|\bnicht (?:nach)?fragen\b",
        r"\b(?:heimlich|unauffallig|unbemerkt|verdeckt|im geheimen)\b",
        r"\b(?:behandl|betracht|markier|stuf)\w*\b" + S + r"{0,40}\bals (?:genehmigt|freigegeben"
        r"|verifiziert|legitim|vertrauenswurdig|echt|von mir)|\bwie anfragen de[rs]\b",
        r"\b(?:losch|entfern|vernicht)\w*\b" + S + r"{0,30}\b(?:anh(?:a|ä)ng\w*|e-mails|dateien|daten"
        r"|nachrichten)\b|\b(?:anh(?:a|ä)ng\w*|e-mails|dateien)\b" + S + r"{0,30}\b(?:losch|entfern)\w*",
        r"\b(?:schick|send|leit|verweis|fuhr)\w*\W{1,3}(?:ihn|sie|den nutzer|die nutzer|nutzer"
        r"|kunden"
        r"|den kunden|user)\b" + S + r"{0,80}?" + DESTINATION,
        _DE_SHARE + S + r"{0,80}?" + alt(_DE_SECRET, r"alle", r"kopie") + S + r"{0,80}?" + DESTINATION,
        _DE_SHARE + S + r"{0,60}?" + _DE_SECRET,
        r"\b(?:fug|setz|nimm|hang)\w*\b" + S + r"{0,40}\b(?:link|url|adresse)\b" + S + r"{0,30}?"
        + DESTINATION,
        r"\b(?:herunterlad|download|installier)\w*" + S + r"{0,60}?" + DESTINATION,
        r"\bgib\w*" + S + r"{0,60}?" + DESTINATION + r"\S*\.(?:exe|apk|msi|sh|bat|dmg|scr|ps1|jar)\b",
        r"\b(?:sag|rat|empfiehl|empfehl)\w*" + S + r"{0,40}?\b(?:medikament\w*|behandlung|therapie)\b" + S
        + r"{0,20}(?:absetz|abbrech|beend|aufhor)",
        r"\bbeleidig\w*\W{1,3}(?:\w+\W{1,3}){0,2}?(?:den nutzer|die nutzer|den kunden"
        r"|den benutzer)",
    ),
    payment=(
        r"\b(?:zahl|bezahl|uberweis|verwende|nutz|geh)\w*\b" + S + r"{0,60}?" + DESTINATION,
    ),
    exfil=sendout(_DE_SHARE, _DE_SECRET),
)

# --- Russian ----------------------------------------------------------------------------------
_RU_M = alt(
    r"(?<![\w])(?:ии|ai|llm)(?:-\w+)?\b", r"нейросет\w*", r"языков\w* модел\w*", r"чат-?бот\w*",
    r"искусственн\w* интеллект\w*",
)
_RU_SHARE = r"\b(?:отправ|перешл|пересыл|передай|переда|скинь|вышл|опубликуй|раскрой|сообщи|дай|выдай|поделись|пришли)\w*"
_RU_SECRET = alt(
    r"парол\w*", r"учетн\w* данн\w*", r"логин\w*", r"(?:api-)?ключ\w*", r"токен\w*",
    r"код\w* (?:подтверждения|доступа|проверки)", r"номер\w* (?:банковской )?карт\w*",
    r"истори\w* (?:переписки|чата|разговор\w*|сообщений)", r"переписк\w*", r"контакт\w*",
    r"адресн\w* книг\w*", r"(?:все )?письма", r"персональн\w* данн\w*", r"список клиентов",
)
RU = Lexicon(
    lang="ru",
    gate=(
    ),
    override=(
        r"\b(?:твоя|ваша) (?:новая|настоящая|истинная|единственная) (?:роль|задача|миссия|цель"
        r"|функция)\b" + S + r"{0,10}?(?:—|-|:|\bэто\b|\bсостоит)",
        r"\b(?:веди себя|действуй|отвечай)\b" + S + r"{0,40}?\bкак\b" + S + r"{0,40}?\bбез (?:каких-либо |всяких |любых )?(?:ограничени|фильтр|правил|цензур)\w*",
        r"\b(?:игнорируй\w*|забудь\w*|не отвечай на|пропусти)\s{1,3}(?:\w+\s{1,3}){0,2}?(?:вопрос"
        r"|запрос|задач|отзыв|сообщени|текст)\w*.{0,60}?\b(?:ответь|скажи|напиши"
        r"|выведи)\w*.{0,200}?" + DESTINATION,
        r"\bправила (?:безопасности|этики)\b" + S + r"{0,20}?\b(?:здесь |тут )?не (?:действуют|применяются|работают)",
        r"\b(?:у тебя|для тебя|у вас) (?:больше )?нет (?:никаких )?(?:правил|ограничений"
        r"|фильтров)\b",
        r"\bрежим\w* разработчика" + S + r"{0,30}?\bбез (?:ограничени|фильтр)\w*",
        r"\b(?:игнорируй|игнорируйте|проигнорируй|проигнорируйте|забудь|забудьте|пренебреги"
        r"|пренебрегите|не обращай(?:те)? внимания на|отбрось|отбросьте|отмени|отмените|обойди"
        r"|обойдите|нарушь|нарушьте|не следуй|не соблюдай|откажись от"
        r"|плюнь на)\b(?:\s{1,3}\w{1,20})"
        r"{0,4}?\s{1,3}(?:сво|тво|ваш|вс|эт|прежн|предыдущ|системн|исходн|изначальн)\w*\s{1,3}"
        r"(?:\w+\s{1,3})?(?:инструкци|правил|указани|ограничени|директив|настройк|запрет|принцип"
        r"|команд)\w*",
        r"\b(?:(?:про)?игнорируй(?:те)?|забудь(?:те)?|отбрось(?:те)?)\s{1,3}(?:вс[еёи]\s{1,3})?"
        r"(?:инструкци|правил|указани|ограничени|директив)\w*,? (?:которые|что) (?:тебе|вам)\b",
        r"\b(?:(?:про)?игнорируй(?:те)?|забудь(?:те)?|не обращай(?:те)? внимания на)\W{1,3}"
        r"(?:вс[её]\W{1,3})?(?:\w+\W{1,3})?"
        r"(?:что\W{1,3})?(?:(?:написано|сказано|указано)\W{1,3})?(?:выше|ранее|до этого)\b",
        r"\b(?:ты|вы)\b" + S + r"{0,40}?\b(?:без (?:каких-либо |всяких |любых )?(?:ограничени|фильтр"
        r"|правил|цензур)\w*|никогда (?:ни в ч[её]м )?не отказыва\w*)",
        r"\b(?:ты|вы) (?:теперь |сейчас )?dan\b",
        r"\b(?:ты|вы) больше не (?:\w+ )?(?:ассистент|помощник|ии|бот|модель|чат-бот)",
        r"\b(?:твои|ваши) (?:ограничения|правила|фильтры)" + S + r"{0,20}?\b(?:сняты|сняли|отменены"
        r"|отключены|удалены)",
        r"\b(?:твой|ваш) режим\w* разработчика" + S + r"{0,30}?\b(?:включ|активир)",
        r"\b(?:раскрой|покажи|выведи|напиши|повтори|скажи|выдай)\w*\b" + S + r"{0,30}?\b(?:скрыт|секретн"
        r"|внутренн|исходн|системн)\w* (?:инструкци|сообщени|настройк|конфигурац|промпт"
        r"|указани)\w*",
        r"\bповтор\w*\b" + S + r"{0,30}?\b(?:дословно|слово в слово)" + S + r"{0,40}?\b(?:текст"
        r"|сообщени|инструкци)",
    ),
    strong=(
        r"\b(?:системн\w+ (?:сообщени|уведомлени|примечани|указани)\w*"
        r"|сообщение администратора)\s{0,2}[:—–]",
        r"\bдля (?:\w+ )?" + _RU_M + r"(?:\s\w+){0,3}\s{0,2}[:—–]",
        r"\bесли (?:ты|вы) (?:\w+ )?" + _RU_M,
        r"\b(?:для|всем|любому|каждому) (?:\w+ )?" + _RU_M + r",? (?:\w+ )?(?:читающ|обрабатывающ"
        r"|оценивающ|анализирующ|просматривающ|котор)\w*[^.!?\n]{0,40}?(?:\b(?:эт|мо|наш)\w*"
        r"|[:—–])",
        r"\b(?:указание|сообщение|заметка|примечание|инструкция|внимание|важно"
        r"|просьба)\W{1,3}(?:для)"
        r"\W{1,3}(?:\w+ )?" + _RU_M,
        r"\bдля (?:\w+ )?" + _RU_M + r"\s{0,2}[:—–]",
    ),
    directive=(
        r"\b(?:скажи|скажите|напиши|напишите|ответь|ответьте|выведи|выведите|отправ|перешл|передай"
        r"|добав|вставь|удали|рекоменд|упомин|упомян|утвержд|игнориру|забудь|пропусти|закрой|одобр"
        r"|прими|оплат|переведи|выполн|установ|скачай|посети|открой|считай|подтверд|сообщи|покажи"
        r"|сохрани|запомни|должен|должна|должны|обязан|нужно|необходимо|пожалуйста|оцени|поставь"
        r"|присвой|найми|не \w+й)\w*|\b\w+(?:йте|ите|ьте)\b"
    ),
    vocative=LABEL + r"(?:(?:уважаем\w+|дорог\w+|привет|эй|внимание)\W{1,3})?(?:мой )?"
    + alt(_RU_M, r"ассистент\w*", r"помощник\w*", r"бот\w*") + r"\s{0,2}[,:!—–]",
    standing=r"(?:каждый раз|всякий раз|всегда|с этого момента|отныне|впредь|навсегда|постоянн\w+"
    r"|запомни\w*|в каждом ответе|в каждый ответ|когда бы)",
    hostile=(
        r"\b(?:кто-то|кто-нибудь|кто угодно|любой|кому угодно|посторонн\w+)\b" + S + r"{0,80}?" + _RU_SECRET + r"(?:(?!\bне\b|\bникогда\b|\bнельзя\b)[^.!?\n]){0,60}?\b(?:скажи|дай|сообщи|назови|отправ|перешли)\w*",
        r"\bнов\w+ (?:реквизит|банковск\w+ сч[её]т|сч[её]т для оплаты)\w*"
        r"|\bреквизиты (?:\w+ )?изменил",
        r"\b(?:скажи|сообщи)\w*\W{1,3}(?:ему|ей|им|пользовател\w*|клиент\w*)\b" + S + r"{0,100}?" + DESTINATION,
        r"\bкак (?:будто )?(?:от меня|мою команду|мой приказ|от администратора)\b",
        r"\bдаже если\b" + S + r"{0,60}?\b(?:другое|иное|обратное|друг\w+)\b",
        r"\bбез (?:ведома|уведомлени|предупреждени|подтверждени|проверк|согласи|вопрос)\w*",
        r"\bне (?:сообщая|говоря|уведомляя|предупреждая|спрашивая)\b|\bне (?:упоминай|сообщай"
        r"|говори"
        r"|уведомляй|показывай|спрашивай)\w*|\bпользовател\w* (?:уведомлять )?не нужно",
        r"\b(?:тайно|незаметно|скрытно|втайне|по-тихому)\b",
        r"\b(?:считай|рассматривай|помечай|отмечай)\w*\b" + S + r"{0,40}\bкак (?:одобренн|подтвержденн"
        r"|проверенн|доверенн|легитимн|от меня)",
        r"\b(?:удали|сотри|уничтож)\w*\b" + S + r"{0,30}\b(?:вложени|письм|файл|данн|сообщени)\w*",
        r"\b(?:отправляй|отправь|перенаправ|направ|веди|посылай)\w*\W{1,3}(?:его|ее|их"
        r"|пользовател\w*"
        r"|клиент\w*)\b" + S + r"{0,80}?" + DESTINATION,
        _RU_SHARE + S + r"{0,80}?" + alt(_RU_SECRET, r"вс[её]", r"копи\w*") + S + r"{0,80}?" + DESTINATION,
        _RU_SHARE + S + r"{0,60}?" + _RU_SECRET,
        r"\b(?:добав|встав)\w*\b" + S + r"{0,40}\b(?:ссылк|url|адрес)\w*" + S + r"{0,30}?" + DESTINATION,
        r"\b(?:скача|установ)\w*" + S + r"{0,60}?" + DESTINATION,
        r"\b(?:давай|дай)\w*" + S + r"{0,60}?" + DESTINATION + r"\S*\.(?:exe|apk|msi|sh|bat|dmg|scr|ps1|jar)\b",
        r"\b(?:советуй|посоветуй|скажи|рекомендуй|говори)\w*" + S + r"{0,40}?\b(?:брос|прекрат|отказ)\w*\b"
        + S + r"{0,20}(?:лечени|лекарств|терапи|таблет)\w*",
        r"\bоскорб\w*\W{1,3}(?:\w+\W{1,3}){0,2}?пользовател",
    ),
    payment=(
        r"\b(?:оплат|перевод|переведи|переводи|плати|заплати)\w*\b" + S + r"{0,60}?(?:сч[её]т|карт|iban)"
        + S + r"{0,40}?(?:" + DESTINATION + r"|\d{4} ?\d{4})",
    ),
    exfil=sendout(_RU_SHARE, _RU_SECRET),
)
