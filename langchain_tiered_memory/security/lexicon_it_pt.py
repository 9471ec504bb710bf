"""Italian and Portuguese word classes of the multilingual detector.

Patterns are over folded text (lower case, Latin accents stripped, ``ё`` → ``е``, NFKC);
see :mod:`.intl_lexicon` for the classes and :mod:`.addressed_intl` for how they combine.
"""

from __future__ import annotations

from .intl_lexicon import DESTINATION, LABEL, Lexicon, S, alt, own_rules, sendout

__all__ = ["IT", "PT"]

# --- Italian ----------------------------------------------------------------------------------
_IT_M = alt(
    r"(?:assistente|agente|sistema|modello|strumento|robot|programma|bot)i?[ -](?:di |d')?(?:ia"
    r"|llm|gpt)\b",
    r"(?<![\w])(?:ia|i\.a\.|llm)\b", r"chatbot", r"modell[oi] linguistic[oi]",
    r"intelligenz[ae] artificial[ei]", r"assistent[ei] (?:virtual|intelligent|digital)[ei]",
)
_IT_SHARE = r"\b(?:invi|mand|inoltr|trasfer|trasmett|condivid|copi|pubblic|comunic|divulg|rivel|d[aà]i\b|fornisc|reindirizz)\w*"
_IT_SECRET = alt(
    r"password", r"credenziali", r"chiavi? (?:api|di accesso)", r"token",
    r"codic[ei] (?:di verifica|segret[oi]|pin|2fa|di accesso|otp)", r"numer[oi] dell?a? carta",
    r"carta di credito", r"cronologia", r"rubrica", r"contatti",
    r"(?:tutte )?(?:le|sue|tue|mie) (?:email|e-mail|mail|conversazioni|messaggi)",
    r"dati (?:personali|dell'utente|dei clienti)", r"elenco (?:completo )?dei clienti",
)
_IT_OVR = (
    r"\b(?:ignora|ignorate|ignori|dimentica|dimenticate|dimentichi|dimenticati (?:di|delle|dei)"
    r"|trascura|trascurate|non considerare|non tenere conto (?:di|delle|dei)|tralascia|scarta"
    r"|salta|aggira|lascia perdere|metti da parte|non seguire|non rispettare|infrangi|bypassa"
    r"|(?:devi|puoi|dovrai) (?:\w+ )?(?:ignorare|dimenticare|infrangere))\b"
)
_IT_OWN = r"(?:le tue|i tuoi|tue|tuoi|le sue|i suoi|tutte le|tutti i)"
_IT_RULES = (
    r"(?:istruzioni|indicazioni|regole|norme|direttive|restrizioni|limiti|filtri|politiche"
    r"|principi|ordini|linee guida|programmazione|protocolli)"
)
_IT_ART = r"(?:le|gli|i|la|il|queste|quelle|questa)"
_IT_POST = (
    r"(?:di prima|di finora|precedent[ei]|iniziali|originali|di sistema|del sistema|di sicurezza"
    r"|qui sopra|sopra|dell'utente"
    r"|che ti (?:hanno|ha|sono stat[ei]) (?:dato|dat[ei]|impost[oaie]))"
)
_IT_GAP = r"(?:[\s'-]{1,3}[^\W\d_]{1,20}){0,5}?[\s'-]{1,3}"
_IT_OWN_OR_ALL = (
    r"(?:" + _IT_OWN + r"|" + _IT_ART + r")[\s'-]{1,3}(?:\w+[\s'-]{1,3}){0,2}?" + _IT_RULES + r"\b"
)
IT = Lexicon(
    lang="it",
    gate=(
        " la ", " mi ", " ti ", " si ", " lo ", " sono ", " questo ", " questa ", " dell'",
        " all'", " nel ", " sul ", " alla ", " il ", " della ", " che ", " non ", " gli ",
        " una ", " tue ", " tuo ", " di ", " e ", " sei ", "sempre", "ogni volta", "d'ora",
        " l'", " del ", " senza ",
    ),
    override=(
        r"\b(?:il tuo|la tua) (?:nuovo|nuova|vero|vera|unico|unica) (?:ruolo|compito|missione"
        r"|obiettivo|funzione)\b" + S + r"{0,10}?\b(?:e|sara|consiste nel) (?:ora |adesso )?\w",
        r"\b(?:comportati|agisci|rispondi)\b" + S + r"{0,40}?\bcome" + S + r"{0,40}?\bsenza (?:alcuna |nessuna )?(?:restrizioni|filtri|limiti|censura|regole)",
        r"\b(?:ti prego di |vi prego di |per favore,? )(?:ignorare|dimenticare|ignora|dimentica)" + _IT_GAP + _IT_OWN_OR_ALL,
        r"\b(?:ignora|dimentica|lascia perdere|lascia stare|tralascia|salta"
        r"|non rispondere a)\W{1,3}(?:\w+\W{1,3}){0,2}?(?:domanda|richiesta|compito|recensione"
        r"|messaggio|testo)\b.{0,60}?\b(?:rispond|di'|dì|dici|scriv|mostr)\w*.{0,200}?" + DESTINATION,
        r"\b(?:linee guida|regole|norme|politiche|restrizioni) (?:di sicurezza|etiche)\b" + S + r"{0,20}?\bnon (?:valgono|si applicano)\b",
        r"\bnon (?:hai|ci sono) piu (?:alcuna |nessuna )?(?:regole|restrizioni|limiti|filtri)\b",
        r"\bmodalita (?:sviluppatore|dev|debug)" + S + r"{0,30}?\bsenza (?:restrizioni|filtri|limiti)",
        *own_rules(_IT_OVR, _IT_OWN, _IT_ART, _IT_RULES, _IT_POST),
        r"\b(?:ignora|dimentica|non tenere conto di|trascura)\W{1,3}(?:quanto|tutto quello che"
        r"|cio che)"
        r"\W{1,3}(?:sopra|precede|detto|ti hanno detto)\b",
        r"\b(?:sei|sarai|diventi|adesso sei|ora sei)\b" + S + r"{0,60}?\b(?:senza (?:alcuna |nessuna )?"
        r"(?:restrizion[ei]|filtri|limiti|censura|regole|limitazioni)|non rifiuta mai|dan\b)",
        r"\bnon sei piu\b" + S + r"{0,20}?\b(?:assistente|ia|chatbot|modello)",
        r"\ble tue (?:restrizioni|limitazioni|regole|filtri)" + S + r"{0,20}?\b(?:sono |sono state )?"
        r"(?:rimoss|revocat|disattivat|annullat|tolt)",
        r"\b(?:la tua|tua) modalita (?:sviluppatore|dev|debug|senza restrizioni)" + S + r"{0,30}?\b(?:attiv|abilit)",
        r"\b(?:rivela|mostra|dimmi|stampa|ripeti|scrivi|divulga)\w*\b" + S + r"{0,30}?"
        r"\b(?:istruzioni|configurazione|messaggio|impostazioni) (?:nascost[ei]|segret[ei]"
        r"|intern[ei]|"
        r"iniziali|originali|di sistema|del sistema)",
        r"\bripet\w+\b" + S + r"{0,30}?\b(?:parola per parola|alla lettera|testualmente)" + S
        + r"{0,40}?\b(?:testo|messaggio|istruzioni|prompt)",
    ),
    strong=(
        r"\b(?:a|al|all'|alla|per|ai|agli) ?(?:l'|il |la |lo |i |gli |le |ogni |qualsiasi "
        r"|qualunque )?(?:[\w'-]+ ){0,3}?" + _IT_M + r"\s{0,2}[:—–]",
        r"\b(?:nota|messaggio|avviso|istruzion[ei]|notifica) (?:di|del|dal) (?:sistema"
        r"|amministratore)\s{0,2}[:—–]",
        r"\bse (?:sei|lei e|siete) (?:un |una |un'|l'|il |la )?(?:\w+ ){0,2}?" + _IT_M,
        r"\b(?:nota|messaggio|istruzion[ei]|avviso|promemoria|informazione|p\.?s\.?|attenzione"
        r"|importante|direttiva|ordine|richiesta)\W{1,3}(?:(?:destinat[oa] |rivolt[oa] )?"
        r"(?:per|a|al|all'|alla)\W{0,3})(?:l'|il |la |lo |i |gli |le |ogni |qualsiasi |qualunque "
        r"|tutti gli |tutte le )?(?:[\w'-]+ ){0,4}?" + _IT_M,
        r"\b(?:a|al|all'|per|ai|agli) ?(?:l'|il |la |lo |i |gli |le |ogni |qualsiasi |qualunque "
        r"|tutti gli |tutte le )?(?:\w+ )?" + _IT_M + r"\W{0,3}(?:che|incaricat\w+ di)\b" + r"[^.!?\n]{0,60}?(?:\b(?:questo|questa|questi|queste|quest'|mio|mia|miei|mie|nostr[oaie])\b|[:—–])",
        r"\b" + _IT_M + r" (?:che|incaricat\w+ di) (?:legge|leggono|elabora|elaborano|riassume"
        r"|riassumono|analizza|analizzano|valuta|valutano|esamina|riceve)\b" + r"[^.!?\n]{0,60}?(?:\b(?:questo|questa|questi|queste|quest'|mio|mia|miei|mie|nostr[oaie])\b|[:—–])",
    ),
    directive=(
        r"\b(?:(?:di'|dì|dici|rispondi|rispondete|scrivi|scrivete|mostra|mostrate|invia|inviate"
        r"|manda|mandate|inoltra|inoltrate|trasferisci|aggiungi|aggiungete|inserisci|cancella"
        r"|elimina|eliminate|consiglia|raccomanda|menziona|menzionate|afferma|affermate|dite|ignora"
        r"|ignorate|dimentica|ometti|classifica|segna|chiudi|approva|accetta|paga|esegui|installa"
        r"|scarica|visita|metti|tratta|considera|conferma|condividi|copia|reindirizza"
        r"|memorizza|ricorda)(?:lo|la|li|le|gli|mi|ci)*|devi|deve|devono|dovrai|dovra|per favore"
        r"|non \w+(?:are|ere|ire|ate|ete|ite))\b"
    ),
    vocative=LABEL + r"(?:(?:car[oa]|gentile|ciao|ehi|attenzione)\W{1,3})?(?:l'|il |mio |tuo |suo )?"
    + alt(_IT_M, r"assistent[ei]", r"agent[ei]") + r"\s{0,2}[,:!—–]",
    standing=r"\b(?:ogni volta che|ogni volta|sempre|d'ora in poi|da ora in poi|da adesso in poi|da "
    r"adesso|d'ora in avanti|per sempre|in modo permanente|permanente|ricorda(?:ti|lo)?|memorizza"
    r"|tieni a mente|in ogni risposta|a ogni risposta)\b",
    hostile=(
        r"\b(?:qualcuno|chiunque|qualsiasi persona|uno sconosciuto)\b" + S + r"{0,80}?" + _IT_SECRET + r"(?:(?!\bnon\b|\bmai\b)[^.!?。！？\n]){0,60}?\b(?:da|dagli|dagliela|dai|di'|dì|digli|comunica|rivela|invia|manda|passa)\w*",
        r"\b(?:nuovo|nuova|nuove) (?:iban|conto corrente|coordinate bancarie)\b|\b(?:iban"
        r"|conto corrente|coordinate bancarie) (?:e|sono) cambiat",
        r"\b(?:di'|dì|dici|comunica|spiega|avvisa|informa|indica)\w*\W{1,3}(?:all'utente"
        r"|agli utenti|al cliente|ai clienti|l'utente|gli utenti)" + S + r"{0,120}?" + DESTINATION,
        r"\bcome (?:se (?:venisse|fosse) )?(?:un ordine |un'istruzione )?(?:da me|mio"
        r"|dall'amministratore)\b",
        r"\banche se\b" + S + r"{0,60}?\b(?:altro|il contrario|diversamente|un altro|un'altra)\b",
        r"\bsenza (?:avvisar|informar|notificar|dir|chieder|controll|verific|conferm|autorizzazion"
        r"|permesso)\w*\b",
        r"\bnon (?:lo |la |gli |le |ne )?(?:menzion|dir|dic|avvis|inform|notific|mostr|chied)\w*\b",
        r"\b(?:di nascosto|segretamente|in segreto|discretamente|all'insaputa)\b",
        r"\b(?:tratt|consider|segn)\w*\b" + S + r"{0,40}\bcome (?:approvat|autorizzat|verificat|legittim"
        r"|affidabil|autentic|se provenisse)",
        r"\b(?:cancell|elimin|distrugg)\w*\b" + S + r"{0,30}\b(?:allegat[io]|email|mail|file|dati|messaggi)\b",
        r"\b(?:mandal|invial|reindirizz|indirizz|digli|dille|porta)\w*\b" + S + r"{0,80}?" + DESTINATION,
        _IT_SHARE + S + r"{0,80}?" + alt(_IT_SECRET, r"tutt[eoi]", r"copia") + S + r"{0,80}?" + DESTINATION,
        _IT_SHARE + S + r"{0,60}?" + _IT_SECRET,
        r"\b(?:aggiung|inser|mett|inclu)\w*\b" + S + r"{0,40}\b(?:link|url|indirizzo|collegamento)\b"
        + S + r"{0,30}?" + DESTINATION,
        r"\b(?:scaric|install)\w*" + S + r"{0,60}?" + DESTINATION,
        r"\bfornisc\w*" + S + r"{0,60}?" + DESTINATION + r"\S*\.(?:exe|apk|msi|sh|bat|dmg|scr|ps1|jar)\b",
        r"\b(?:digli|dille|di'|dì|consigli|raccomand|suggerisc)\w*" + S + r"{0,40}?\b(?:smett|interromp"
        r"|abbandon|sospend)\w*\b" + S + r"{0,20}\b(?:terapia|farmac[oi]|cura|medicin)",
        r"\binsult\w*\W{1,3}(?:\w+\W{1,3}){0,2}?(?:l'utente|gli utenti|il cliente)",
    ),
    payment=(
        r"\b(?:pag|bonific|vers|usa|utilizz)\w*\b" + S + r"{0,60}?(?:iban|conto|carta)" + S
        + r"{0,40}?" + DESTINATION,
    ),
    exfil=sendout(_IT_SHARE, _IT_SECRET),
)

# --- Portuguese -------------------------------------------------------------------------------
_PT_M = alt(
    r"(?:assistente|agente|sistema|modelo|ferramenta|robo|programa|bot)s?[ -](?:de |da "
    r"|do )?(?:ia|llm|gpt)\b",
    r"(?<![\w])(?:ia|i\.a\.|llm)\b", r"chatbots?", r"modelos? de linguagem",
    r"inteligencias? artifici(?:al|ais)", r"assistentes? (?:virtual|inteligente|digital)(?:is|es)?",
)
_PT_SHARE = r"\b(?:envi|mand|encaminh|reencaminh|transfir|transmit|compartilh|partilh|copi|public|comunic|divulg|revel|d[eê]\b|forne[cç]|redirecion)\w*"
_PT_SECRET = alt(
    r"senhas?", r"credenciais", r"chaves? (?:de )?(?:api|acesso)", r"tokens?",
    r"codigos? (?:de verificacao|secreto|pin|2fa|de acesso|de seguranca)", r"numeros? do cartao",
    r"cartao de credito", r"historico", r"agenda de contatos", r"contatos",
    r"(?:todos )?(?:os|seus|teus|meus) (?:e-?mails|mensagens|conversas)",
    r"dados (?:pessoais|do usuario|dos clientes)", r"lista (?:completa )?de clientes",
)
_PT_OVR = (
    r"\b(?:ignore|ignora|ignorem|esqueca|esquece|esquecam|esqueca-se d[aeo]s?|desconsidere"
    r"|desconsidera|despreze|descarte|deixe de lado|deixa de lado|nao siga|nao obedeca|pule"
    r"|passe por cima d[aeo]s?|contorne|abandone|(?:deve|precisa|pode|vai) (?:\w+ )?(?:ignorar"
    r"|esquecer|desobedecer))\b"
)
_PT_OWN = r"(?:suas|seus|tuas|teus|todas as|todos os)"
_PT_RULES = (
    r"(?:instrucoes|orientacoes|regras|normas|diretrizes|restricoes|limites|filtros|politicas"
    r"|principios|ordens|programacao|protocolos|indicacoes)"
)
_PT_ART = r"(?:as|os|a|o|estas|essas|esta)"
_PT_POST = (
    r"(?:de antes|de ate agora|anterior\w*|previ[ao]s|inicia\w*|origina\w*|do sistema"
    r"|de seguranca|acima|do usuario"
    r"|que (?:te|lhe) (?:deram|foram dad[oa]s|deu))"
)
_PT_GAP = r"(?:[\s'-]{1,3}[^\W\d_]{1,20}){0,5}?[\s'-]{1,3}"
_PT_OWN_OR_ALL = (
    r"(?:" + _PT_OWN + r"|" + _PT_ART + r")[\s'-]{1,3}(?:\w+[\s'-]{1,3}){0,2}?" + _PT_RULES + r"\b"
)
PT = Lexicon(
    lang="pt",
    gate=(
        " um ", " meu ", " minha ", " isso ", " isto ", " mas ", " como ", " pelo ", " pela ",
        " ao ", " dos ", " das ", " os ", " uma ", " da ", " que ", " para ", " voce ", " nao ",
        " suas ", " seu ", " sua ", " e ", "sempre", " em ", " na ", " sem ",
    ),
    override=(
        r"\b(?:seu|sua|teu|tua) (?:novo|nova|verdadeiro|verdadeira|unico|unica) (?:papel|tarefa"
        r"|missao|objetivo|funcao)\b" + S + r"{0,10}?\b(?:e|sera|consiste em) (?:agora )?\w",
        r"\b(?:comporte-se|aja|responda)\b" + S + r"{0,40}?\bcomo" + S + r"{0,40}?\bsem (?:nenhuma |qualquer )?(?:restricoes|filtros?|limites|censura|regras)",
        r"\b(?:por favor,? )(?:ignore|esqueca|desconsidere)" + _PT_GAP + _PT_OWN_OR_ALL,
        r"\b(?:ignore|esqueca|desconsidere)\W{1,3}(?:tudo )?o que (?:te|lhe) (?:disseram"
        r"|pediram)\b",
        r"\b(?:ignore|ignora|esqueca|deixe de lado"
        r"|nao responda a?)\W{1,3}(?:\w+\W{1,3}){0,2}?(?:pergunta|pedido|solicitacao|tarefa"
        r"|avaliacao|mensagem|texto)\b.{0,60}?\b(?:respond|diga|escrev|mostr)\w*.{0,200}?" + DESTINATION,
        r"\b(?:regras|normas|politicas|restricoes|diretrizes) (?:de seguranca|eticas)\b" + S + r"{0,20}?\bnao (?:se )?aplicam\b",
        r"\b(?:voce nao tem|nao ha|nao existem) mais (?:nenhuma )?(?:regras|restricoes|limites"
        r"|filtros)\b",
        r"\bmodo (?:desenvolvedor|dev|debug)" + S + r"{0,30}?\bsem (?:restricoes|filtros?|limites)",
        *own_rules(_PT_OVR, _PT_OWN, _PT_ART, _PT_RULES, _PT_POST),
        r"\b(?:ignore|esqueca|desconsidere|despreze)\W{1,3}(?:o que|tudo o que|tudo que)\W{1,3}"
        r"(?:foi dito|esta acima|lhe disseram|te disseram)\b",
        r"\b(?:voce e|voce sera|tu es|agora e)\b" + S + r"{0,60}?\b(?:sem (?:nenhuma |qualquer )?"
        r"(?:restricoes|restricao|filtros?|limites?|censura|regras?)|nunca recusa|dan\b)",
        r"\b(?:voce nao e mais|tu ja nao es|voce ja nao e)\b" + S + r"{0,20}?\b(?:assistente|ia|chatbot|modelo)",
        r"\b(?:suas|tuas) (?:restricoes|limitacoes|regras|filtros)" + S + r"{0,20}?\b(?:foram |estao )?"
        r"(?:removid|suspens|desativad|cancelad|levantad)",
        r"\b(?:seu|teu) modo (?:desenvolvedor|dev|debug|sem restricoes)" + S + r"{0,30}?\b(?:ativ|habilit)",
        r"\b(?:revele|mostre|diga|imprima|repita|escreva|divulgue)\w*\b" + S + r"{0,30}?"
        r"\b(?:instrucoes|configuracao|mensagem|configuracoes) (?:ocultas?|secretas?|internas?|"
        r"iniciais|originais|de sistema|do sistema)",
        r"\brepit\w*\b" + S + r"{0,30}?\b(?:palavra por palavra|literalmente|textualmente)" + S
        + r"{0,40}?\b(?:texto|mensagem|instrucoes|prompt)",
    ),
    strong=(
        r"\b(?:a|ao|para|aos) (?:o |a |os |as |todo |toda |todos os |todas as |cada "
        r"|qualquer )?(?:[\w'-]+ ){0,3}?" + _PT_M + r"\s{0,2}[:—–]",
        r"\b(?:nota|mensagem|aviso|instrucao|notificacao) (?:do|de) (?:sistema"
        r"|administrador)\s{0,2}[:—–]",
        r"\bse (?:voce e|voce for|tu es|for) (?:um |uma |o |a )?(?:\w+ ){0,2}?" + _PT_M,
        r"\b(?:nota|mensagem|instruc(?:ao|oes)|aviso|lembrete|informacao|p\.?s\.?|atencao"
        r"|observacao"
        r"|importante|diretiva|ordem|pedido)\W{1,3}(?:(?:dirigid[oa]s? |destinad[oa]s? )?"
        r"(?:para|a|ao|à)\W{1,3})(?:o |a |os |as |todo |toda |todos os |todas as |cada |qualquer )?"
        r"(?:[\w'-]+ ){0,4}?" + _PT_M,
        r"\b(?:a|ao|para|aos) (?:o |a |os |as |todo |toda |todos os |todas as |cada |qualquer )?"
        r"(?:\w+ )?" + _PT_M + r"\W{0,3}(?:que|processando|lendo|resumindo|analisando|avaliando"
        r"|encarregad\w+ de)\b" + r"[^.!?\n]{0,60}?(?:\b(?:este|esta|estes|estas|isto|esse|essa|meu|minha|meus|minhas|noss[oa]s?)\b|[:—–])",
        r"\b" + _PT_M + r" (?:que|encarregad\w+ de) (?:le|leem|ler|processa|processam|processar"
        r"|resume|resumem|analisa|analisam|avalia|avaliam|revisa|recebe)\b" + r"[^.!?\n]{0,60}?(?:\b(?:este|esta|estes|estas|isto|esse|essa|meu|minha|meus|minhas|noss[oa]s?)\b|[:—–])",
        r"\bse voce e\b" + S + r"{0,20}?" + _PT_M,
    ),
    directive=(
        r"\b(?:(?:diga|digam|diz|responda|respondam|escreva|escrevam|mostre|envie|enviem|mande"
        r"|encaminhe|transfira|acrescente|adicione|inclua|insira|apague|apaguem|exclua|elimine"
        r"|recomende|recomendem|mencione|mencionem|afirme|ignore|ignorem|esqueca|omita|classifique"
        r"|marque|feche|aprove|aceite|pague|execute|instale|baixe|visite|faca|ponha|coloque"
        r"|trate|considere|confirme|compartilhe|copie|redirecione|guarde|lembre)(?:-(?:o|a|os|as"
        r"|lhe"
        r"|me|se))?|deve|devem|devera|precisa|por favor|nao \w+(?:e|em|es|a|am))\b"
    ),
    vocative=LABEL + r"(?:(?:car[oa]|prezad[oa]|ola|oi|ei|atencao)\W{1,3})?(?:o |meu |seu |teu )?"
    + alt(_PT_M, r"assistentes?", r"agentes?") + r"\s{0,2}[,:!—–]",
    standing=r"\b(?:sempre que|toda vez que|cada vez que|sempre|a partir de agora|de agora em diante"
    r"|daqui para frente|daqui em diante|a partir de hoje|para sempre|permanente|lembre-se|lembre"
    r"|memorize|guarde (?:isto|isso|na memoria)|em cada resposta|a cada resposta)\b",
    hostile=(
        r"\b(?:alguem|qualquer pessoa|quem quer que seja|um desconhecido)\b" + S + r"{0,80}?" + _PT_SECRET + r"(?:(?!\bnao\b|\bnunca\b|\bjamais\b)[^.!?。！？\n]){0,60}?\b(?:de|entregue|diga|informe|revele|envie|mande|passe|fale)\w*",
        r"\b(?:nova|novo|novos) (?:conta bancaria|iban|dados bancarios|chave pix)\b"
        r"|\b(?:conta bancaria|iban|dados bancarios|chave pix) mud",
        r"\b(?:diga|digam|informe|avise|explique|indique)\w*\W{1,3}(?:ao usuario|aos usuarios"
        r"|o usuario|os usuarios|ao cliente|aos clientes|o cliente)" + S + r"{0,120}?" + DESTINATION,
        r"\bcomo (?:se (?:viesse|fosse) )?(?:uma ordem |uma instrucao )?(?:de mim|minha"
        r"|do administrador)\b",
        r"\bmesmo que\b" + S + r"{0,60}?\b(?:outra coisa|o contrario|outra|outro)\b",
        r"\bsem (?:avisar|informar|notificar|dizer|perguntar|verificar|conferir|confirmar"
        r"|confirmacao"
        r"|verificacao|revisao|autorizacao|permissao|pedir)\w*\b",
        r"\bnao (?:o |a |lhe |lhes |se )?(?:mencion|diga|avis|inform|notifiqu|mostr|pergunt)\w*\b",
        r"\b(?:secretamente|em segredo|as escondidas|discretamente|sem que (?:ele|ela"
        r"|o usuario) saiba)\b",
        r"\b(?:trat|consider|marqu)\w*\b" + S + r"{0,40}\bcomo (?:aprovad|autorizad|verificad|legitim"
        r"|confiavel|autentic|se viesse)",
        r"\b(?:apag|exclu|elimin|destru)\w*\b" + S + r"{0,30}\b(?:anexos?|e-?mails?|arquivos|dados|mensagens)\b",
        r"\b(?:mande-o|mande-a|envie-o|envie-a|redirecion|encaminhe-o|direcion|diga a ele"
        r"|leve)\w*\b" + S
        + r"{0,80}?" + DESTINATION,
        _PT_SHARE + S + r"{0,80}?" + alt(_PT_SECRET, r"tod[oa]s?", r"copia") + S + r"{0,80}?" + DESTINATION,
        _PT_SHARE + S + r"{0,60}?" + _PT_SECRET,
        r"\b(?:acrescent|adicion|insir|coloqu|inclu)\w*\b" + S + r"{0,40}\b(?:link|url|endereco)\b" + S
        + r"{0,30}?" + DESTINATION,
        r"\b(?:baix|instal)\w*" + S + r"{0,60}?" + DESTINATION,
        r"\bforne[cç]\w*" + S + r"{0,60}?" + DESTINATION + r"\S*\.(?:exe|apk|msi|sh|bat|dmg|scr|ps1|jar)\b",
        r"\b(?:diga|aconselh|recomend|sugir)\w*\b" + S + r"{0,40}?\b(?:par|abandon|suspend|interromp)"
        r"\w*\b" + S + r"{0,20}\b(?:tratamento|medicacao|medicamentos?|remedios?)",
        r"\binsult\w*\W{1,3}(?:\w+\W{1,3}){0,2}?(?:o usuario|os usuarios|o cliente)",
    ),
    payment=(
        r"\b(?:pagu|pag|transfir|deposit|use|utiliz)\w*\b" + S + r"{0,60}?(?:iban|conta|cartao|pix)" + S
        + r"{0,40}?" + DESTINATION,
    ),
    exfil=sendout(_PT_SHARE, _PT_SECRET),
)
