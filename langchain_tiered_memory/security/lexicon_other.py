"""German, Russian, Japanese and Korean word classes of the multilingual detector.

Patterns are over folded text (lower case, Latin accents stripped, ``ё`` → ``е``, NFKC so that
full-width ``：`` is ``:``); see :mod:`.intl_lexicon`. Japanese and Korean put the object before
the verb, so their override and exfiltration patterns read object → verb.
"""

from __future__ import annotations

from .intl_lexicon import DESTINATION, LABEL, Lexicon, S, alt, sendout

__all__ = ["DE", "JA", "KO", "RU"]

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

# --- Japanese ---------------------------------------------------------------------------------
_JA_M = (r"(?:(?:ai|llm|gpt)(?:アシスタント|エージェント|システム|モデル|ツール|チャットボット)?|人工知能"
         r"|言語モデル|チャットボット|アシスタント|エージェント)")
_JA_OBJ = r"(?:指示|命令|指令|ルール|設定|プロンプト|制約|規則|ガイドライン|ポリシー|制限|方針)"
_JA_QUAL = (r"(?:あなたの|君の|お前の|以前の|前の|上記の|上の|これまでの|今までの|システムの|開発者の|開発者から"
            r"の|安全|セキュリティ|元の|最初の|すべての|全ての|先ほどの|与えられた|既存の)")
_JA_SECRET = (r"(?:パスワード|暗証番号|認証コード|確認コード|apiキー|トークン|クレジットカード番号|カード番号"
              r"|クレジットカード|会話履歴|連絡先|アドレス帳|全メール|すべてのメール|個人情報|顧客リスト"
              r"|ログイン情報|認証情報)")
_JA_SEND = r"(?:送信|送っ|送る|送り|転送|共有|アップロード|漏ら|公開|送付)"
JA = Lexicon(
    lang="ja",
    gate=(
    ),
    override=(
        r"あなたの(?:新しい|本当の|真の|唯一の)(?:役割|任務|タスク|目的|使命)は",
        r"(?:制限|制約|フィルター)(?:の)?(?:ない|なし|無し)(?:で|に)?" + S + r"{0,20}?(?:振る舞|ふるま|答え)",
        r"(?:質問|依頼|タスク|レビュー|メッセージ|文章)(?:は|を)?(?:無視|忘れ)(?:して|し|て)[、,]?.{0,200}?" + DESTINATION + r".{0,60}?(?:答え|言っ|書い|出力|返)",
        r"(?:安全|セキュリティ|倫理)(?:上の)?(?:ルール|ガイドライン|ポリシー|規則)(?:は|が)(?:ここでは|この場合)?(?:適用されない|適用されません|無効)",
        r"開発者モード.{0,30}?(?:制限|制約|フィルター)(?:の|が)?(?:ない|なし|無い|無し)",
        _JA_QUAL + r".{0,8}?" + _JA_OBJ + r"(?:は|を|も|には|に)?(?:すべて|全て|全部|もう|一切)?.{0,4}?"
        r"(?:無視|忘れ|気にせず|気にしない|破棄|従わ|捨て|スキップ|無効に)",
        r"(?:上記|以上|これまで|先ほど|前)の(?:内容|文章|テキスト|こと|指示)?(?:は|を)?(?:すべて|全て)?"
        r"(?:無視|忘れ)",
        r"(?:以前に|前に|これまでに|今まで|先ほど)(?:言われた|与えられた|受けた|聞いた)(?:こと|指示|内容)"
        r"(?:は|を)?(?:すべて|全て|全部)?(?:忘れ|無視)",
        r"(?:あなたは|君は|今から|これから(?:は)?|今後(?:は)?).{0,20}?(?:制限|制約|フィルター|ルール)"
        r"(?:の|が|は)?(?:一切)?(?:ない|なし|無い|無し|ありません)",
        r"(?:何も|決して|一切)拒否しない|(?:あなたは|今から).{0,6}?dan(?:です|だ|として|に)",
        r"あなたは(?:もう|もはや).{0,12}?(?:アシスタント|ai|ボット|モデル)では(?:ない|ありません)",
        r"制限(?:は|が)(?:すべて)?(?:解除|撤廃|無効)",
        r"(?:隠された|秘密の|内部の|内部|システムの?|元の|最初の)(?:指示|設定|メッセージ|プロンプト|命令)"
        + S + r"{0,20}?(?:明かし|表示|出力|教え|見せ|繰り返|書き出)",
        r"(?:一字一句|一言一句|逐語的に|そのまま)" + S + r"{0,20}?(?:繰り返|書き出)",
    ),
    strong=(
        r"(?:システム|管理者)(?:からの)?(?:メッセージ|通知|注意|お知らせ|指示)\s{0,2}[:：]",
        r"(?:読んでいる|読む|処理する|処理している|要約する|要約している|評価する|評価している|閲覧して"
        r"いる|解析する|分析する|扱う)(?:すべての|全ての|各)?" + _JA_M,
        _JA_M + r"(?:への|に対する|向けの?)(?:指示|メッセージ|注意|お願い|メモ|連絡|指令|命令)",
        _JA_M + r"(?:へ|に告ぐ|の皆さん|各位)\s{0,2}[:、,!]",
        r"(?:もし)?(?:あなたが)?" + _JA_M + r"(?:である|なら|の場合|でしたら|であれば)",
    ),
    directive=(
        r"(?:ください|下さい|くれ|なさい|すること|こと(?:。|$|\s|!)|せよ|しろ|ないで|べき|ように"
        r"|必要があります|して[、。]|伝えて|書いて|答えて)"
    ),
    vocative=r"(?:^|[\n。！？!?:「『(\[<>*#\-])\s{0,2}(?:ねえ|おい|親愛なる)?" + _JA_M
    + r"(?:さん|くん)?\s{0,2}[、,:!]",
    standing=r"(?:たびに|度に|いつも|常に|今後|これから|以後|以降|永久|ずっと|覚えておいて|記憶して|恒久"
    r"|毎回|すべての回答|全ての回答|必ず)",
    hostile=(
        r"(?:誰か|誰が|誰にでも|第三者)" + S + r"{0,40}?" + _JA_SECRET + S + r"{0,40}?(?:教え|伝え|送|渡)(?!ない|ず|るな|てはいけ|ちゃだめ)",
        r"(?:振込先|口座|支払先)(?:が|は)?(?:変更|変わ)",
        r"私(?:から|が送った)(?:もの|指示|依頼)として",
        r"たとえ.{0,30}?(?:違う|別の|異なる)",
        r"(?:知らせ|伝え|通知し|言わ|報告し)(?:ないで|ずに|ず)|こっそり|密かに|ひそかに"
        r"|気づかれ(?:ずに|ないように)|内緒で|黙って|(?:触れ|言及し)(?:ず|ないで)",
        r"確認(?:は)?(?:なし|せずに|不要|しないで)|承認済み|承認された(?:もの)?として",
        r"(?:添付|メール|ファイル|データ)" + S + r"{0,10}?(?:削除|消去)",
        DESTINATION + r"\S*" + S + r"{0,20}?(?:誘導|案内|送|転送|送信|共有|追加)",
        _JA_SECRET + S + r"{0,40}?" + _JA_SEND,
        r"(?:薬|治療|服薬)" + S + r"{0,6}?(?:やめ|中止|止め)" + S + r"{0,10}?(?:言う|言って|伝え|勧め|アドバイス)",
        r"ユーザー(?:を|に対して)侮辱",
    ),
    payment=(
        r"(?:振込|支払|送金|振り込)" + S + r"{0,40}?(?:口座|カード|iban)",
    ),
    exfil=(
        _JA_SECRET + S + r"{0,60}?" + DESTINATION + r"\S*" + S + r"{0,20}?" + _JA_SEND,
        _JA_SECRET + S + r"{0,40}?" + _JA_SEND + S + r"{0,20}?" + DESTINATION,
    ),
)

# --- Korean -----------------------------------------------------------------------------------
_KO_M = (r"(?:(?:ai|llm|gpt)(?:\s?(?:어시스턴트|에이전트|시스템|모델|비서|챗봇|도구))?|인공지능|언어\s?모델"
         r"|챗봇|어시스턴트|에이전트)")
_KO_OBJ = r"(?:지시|지침|명령|규칙|프롬프트|설정|가이드라인|정책|제한|원칙)"
_KO_QUAL = (r"(?:네|너의|당신의|이전|이전의|위의|앞의|지금까지의?|기존의?|시스템|개발자가 준|개발자의|보안"
            r"|모든|원래의?|처음의?)")
_KO_SECRET = (r"(?:비밀번호|패스워드|인증\s?코드|인증\s?번호|api\s?키|토큰|신용카드\s?번호|카드\s?번호"
              r"|대화\s?기록|연락처|주소록|모든 메일|개인\s?정보|고객\s?명단|로그인\s?정보)")
_KO_SEND = r"(?:보내|전송|전달|공유|업로드|유출|공개)"
KO = Lexicon(
    lang="ko",
    gate=(
    ),
    override=(
        r"(?:너의|당신의|네)\s?(?:새로운|진짜|진정한|유일한)\s?(?:역할|임무|목표|과제)(?:은|는)",
        r"(?:제한|제약|필터)\S{0,2}\s?(?:없이|없는)" + S + r"{0,20}?(?:행동|대답|답변)",
        r"(?:질문|요청|작업|리뷰|메시지|글)\S{0,2}\s?(?:무시|잊)(?:하고|고).{0,200}?" + DESTINATION + r".{0,60}?(?:답해|답하|말해|써|출력)",
        r"(?:보안|안전|윤리)\s?(?:규칙|지침|정책|가이드라인)\S{0,2}\s?(?:여기서는\s?|이 경우\s?)?적용되지\s?않",
        r"개발자\s?모드.{0,30}?(?:제한|제약|필터)\S{0,2}\s?(?:없는|없이)",
        _KO_QUAL + r".{0,8}?" + _KO_OBJ + r"\S{0,3}\s?(?:모두\s?|다\s?|전부\s?)?(?:무시|잊|신경\s?쓰지\s?말"
        r"|따르지\s?마|취소|폐기|건너뛰)",
        r"(?:위의?|앞의?|이전의?|전에)\s?(?:내용|글|말|것|들은 것)\S{0,2}\s?(?:모두\s?|전부\s?|다\s?)?"
        r"(?:무시|잊)",
        r"(?:너는|당신은|넌).{0,20}?(?:제한|제약|필터|규칙)\S{0,2}\s?(?:없는|없이|없어)",
        r"(?:제한|제약|필터)\S{0,2}\s?(?:없는|없이)\s?(?:ai|어시스턴트|챗봇|모델|봇)",
        r"(?:아무것도|어떤 것도|무엇도)\s?거절하지\s?않|(?:너는|당신은|넌)\s?(?:이제\s?|지금부터\s?)?dan",
        r"(?:너는|당신은|넌)\s?(?:이제|더\s?이상)\s?.{0,10}?(?:어시스턴트|ai|비서|챗봇|모델)(?:가|이)\s?아니",
        r"제한(?:이|은)\s?(?:모두\s?)?(?:해제|풀렸|제거)",
        r"(?:숨겨진|비밀|내부|시스템|원래|초기)\s?(?:지시|설정|메시지|프롬프트|명령)" + S
        + r"{0,20}?(?:공개|출력|알려|보여|반복|말해)",
        r"(?:한 글자도 빠짐없이|토씨 하나|글자 그대로|그대로)" + S + r"{0,20}?(?:반복|출력)",
    ),
    strong=(
        r"(?:시스템|관리자)\s?(?:메시지|알림|공지|지시)\s{0,2}[:：]",
        r"(?:읽는|처리하는|요약하는|평가하는|분석하는|검토하는|보는)\s?(?:모든\s?)?" + _KO_M,
        _KO_M + r"\s?(?:에게|께|에 대한 지시|에게 보내는)\s?[:,]?",
        _KO_M + r"(?:이|라)면",
        _KO_M + r"\s?(?:참고|주의|지시|메모|안내|필독)\s?[:：]",
        r"만약\s?(?:네가|당신이|너가)\s?" + _KO_M,
    ),
    directive=(
        r"(?:하세요|하십시오|해\s?주세요|해\s?줘|해라|하라|할\s?것|마세요|마라|말\s?것|말아|세요|십시오"
        r"|해야|하도록|줘|해\b|라\b|거라|주길|바랍니다|[가-힣]야\s?(?:함|한다|합니다)|[가-힣]\s?것(?:\.|$)"
        r"|[가-힣](?:어|아|여|해)(?:\s|[.!,]|$))"
    ),
    vocative=LABEL + _KO_M + r"(?:야|아|님)?\s?[,:!]",
    standing=r"(?:때마다|항상|언제나|앞으로|이제부터|지금부터|영구|영원히|기억해|늘\s|매번|모든 답변)",
    hostile=(
        r"(?:누가|누군가|누구든|아무에게나|아무나)" + S + r"{0,40}?" + _KO_SECRET + S + r"{0,40}?(?:알려|보내|말해|전달|줘)(?!\s?주지|지\s?마|\s?주면\s?안)",
        r"(?:계좌|입금\s?계좌|송금\s?계좌)\S{0,2}\s?(?:변경|바뀌)",
        r"내가 보낸 것으로|나로부터 온 것으로",
        r"(?:다르게|달리|다른)\S{0,3}\s?.{0,20}?(?:하더라도|해도|있더라도)",
        r"(?:알리지|말하지|언급하지|통보하지)\s?(?:마|말|않)|몰래|들키지\s?않게|은밀히|비밀리에",
        r"확인\S{0,2}\s?(?:없이|안\s?하고|필요\s?없|하지\s?마)|승인(?:된|됨)\s?(?:것으로|으로)",
        r"(?:첨부|메일|파일|데이터)" + S + r"{0,10}?(?:삭제|지워)",
        DESTINATION + r"\S*" + S + r"{0,20}?(?:보내|전달|전송|안내|유도|공유|추가|알려)",
        _KO_SECRET + S + r"{0,40}?" + _KO_SEND,
        r"(?:약|치료|복용)" + S + r"{0,6}?(?:끊|중단|그만)" + S + r"{0,10}?(?:말해|전해|권해|조언)",
        r"사용자(?:를|에게)\s?모욕",
    ),
    payment=(
        r"(?:송금|이체|결제|입금)" + S + r"{0,30}?(?:계좌|카드)|(?:계좌|카드)" + S + r"{0,30}?(?:송금|이체)",
    ),
    exfil=(
        _KO_SECRET + S + r"{0,60}?" + DESTINATION + r"\S*" + S + r"{0,20}?" + _KO_SEND,
        _KO_SECRET + S + r"{0,40}?" + _KO_SEND + S + r"{0,20}?" + DESTINATION,
    ),
)
