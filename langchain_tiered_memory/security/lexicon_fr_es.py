"""French and Spanish word classes of the multilingual detector.

Patterns are over folded text (lower case, Latin accents stripped, ``ё`` → ``е``, NFKC);
see :mod:`.intl_lexicon` for the classes and :mod:`.addressed_intl` for how they combine.
"""

from __future__ import annotations

from .intl_lexicon import DESTINATION, LABEL, Lexicon, S, alt, own_rules, sendout

__all__ = ["ES", "FR"]

# --- French -----------------------------------------------------------------------------------
_FR_M = alt(
    r"(?:assistant|agent|systeme|modele|outil|robot|programme)e?s?[ -](?:d'|de |d )?(?:ia|llm"
    r"|gpt)\b",
    r"(?<![\w])(?:ia|i\.a\.|llm)\b", r"chatbots?", r"modeles? de langage",
    r"intelligences? artificielles?", r"assistants? (?:virtuel|intelligent|numerique)s?",
)
_FR_SHARE = r"\b(?:envoi|envoy|transf[e]r|transmet|partag|copi|publi|communiqu|divulgu|revel|donn|fourni|mets? en copie|mettez en copie|redirig|fais suivre|faites suivre)\w*"
_FR_SECRET = alt(
    r"mots? de passe", r"identifiants", r"cles? (?:d')?api", r"jetons?", r"tokens?",
    r"codes? (?:de verification|secret|pin|2fa|d'acces|de securite)", r"numeros? de (?:carte|cb)",
    r"cartes? (?:bancaire|de credit)", r"historique", r"carnet d'adresses", r"contacts",
    r"(?:tous )?(?:les|ses|tes|mes) (?:e-?mails|courriels|messages|conversations)",
    r"donnees (?:personnelles|de l'utilisat\w+|clients?)", r"coordonnees", r"liste (?:complete )?des clients",
)
_FR_OVR = (
    r"\b(?:ignore[zs]?|oublie[zs]?|neglige[zs]?|(?:fais|faites) abstraction|ne (?:tiens"
    r"|tenez) (?:pas|plus) compte|passe[zs]? outre|outrepasse[zs]?|contourne[zs]?|ecarte[zs]?"
    r"|laisse[zs]? (?:de cote|tomber)|mets? de cote|mettez de cote|desobei[sr]|enfreins|(?:dois"
    r"|devez|peux|pouvez|vas|allez|faut) (?:\w+ )?(?:ignorer|oublier|enfreindre))\b"
)
_FR_OWN = r"(?:tes|vos|ton|ta|votre|toutes? (?:les|tes|vos))"
_FR_RULES = (
    r"(?:instructions?|consignes?|regles?|directives?|restrictions?|normes?|limites?|filtres?"
    r"|garde-fous|principes|programmation|ordres|protocoles?|politiques?|parametres|directives?)"
)
_FR_ART = r"(?:les|la|le|ces|cette|ce)"
_FR_POST = (
    r"(?:d'avant|d'avant ca|de tout a l'heure|ci-dessus|precedent\w*|anterieur\w*|initia\w*"
    r"|d'origine|du systeme|systeme|de securite|plus haut|de l'utilisateur"
    r"|qu'on (?:t'a|vous a)|que (?:l'on |ton |votre |tes |vos |le |les )?\w* ?(?:t'a|vous a|t'ont"
    r"|vous ont))"
)
_FR_GAP = r"(?:[\s'-]{1,3}[^\W\d_]{1,20}){0,5}?[\s'-]{1,3}"
_FR_OWN_OR_ALL = (
    r"(?:" + _FR_OWN + r"|" + _FR_ART + r")[\s'-]{1,3}(?:\w+[\s'-]{1,3}){0,2}?" + _FR_RULES + r"\b"
)
FR = Lexicon(
    lang="fr",
    gate=(
        " la ", " le ", " les ", " des ", " une ", " est ", " mon ", " mes ", " ses ", " sur ",
        " ne ", " pas ", " je ", " il ", " elle ", " nous ", " mais ", " tout", "-le ", "-moi",
        "-toi", " dans ", " avec ", " qui ", " tu ", " vous ", " tes ", "toujours", "desormais",
        " l'", " d'", " qu'", "chaque ", " aux ", " et ", " ce ", " du ", " sans ", " moi ",
    ),
    override=(
        r"\b(?:ton|ta|votre) (?:nouveau|nouvelle|vrai|vraie|veritable|seul|seule) (?:role|tache"
        r"|mission|objectif|but|fonction)\b" + S + r"{0,10}?\b(?:est|sera|consiste) (?:de |d'|desormais |maintenant )",
        r"\b(?:comporte-toi|comportez-vous|agis|agissez|reponds|repondez)\b" + S + r"{0,40}?\b(?:comme|en tant qu)" + S + r"{0,40}?\bsans (?:aucune? )?(?:restrictions?|filtres?|limites?|censure|regles?)",
        r"\b(?:merci d(?:e |')|veuillez |priere d(?:e |')|je (?:te|vous) (?:demande|prie) d(?:e "
        r"|'))(?:ignorer|oublier|ne (?:plus|pas) tenir compte|faire abstraction)" + _FR_GAP + _FR_OWN_OR_ALL,
        r"\b(?:ignore[zs]?|oublie[zs]?)\W{1,3}(?:tout )?ce qu'on (?:t'a|vous a) (?:dit|demande"
        r"|appris)\b",
        r"\b(?:ignore[zs]?|oublie[zs]?|laisse[zs]? tomber|ne (?:tiens|tenez) pas compte d[eu']"
        r"|ne reponds pas a)\W{1,3}(?:\w+\W{1,3}){0,2}?(?:question|demande|requete|tache|avis"
        r"|critique|message|texte)\b.{0,60}?\b(?:repon|di[st]|ecri|affich)\w*.{0,200}?" + DESTINATION,
        r"\b(?:regles|consignes|politiques|restrictions|directives|lignes directrices"
        r"|garde-fous) (?:de securite|de surete|ethiques)\b" + S + r"{0,20}?\bne s'appliquent (?:pas|plus)",
        r"\b(?:tu n'as|vous n'avez) plus (?:de |aucune )(?:regles?|restrictions?|limites?"
        r"|filtres?)\b",
        *own_rules(_FR_OVR, _FR_OWN, _FR_ART, _FR_RULES, _FR_POST),
        r"\b(?:ignore[zs]?|oublie[zs]?|ne (?:tiens|tenez) pas compte d[eu]|(?:fais|faites) "
        r"abstraction d[eu])\W{1,3}(?:les|la|le|ce qui|tout ce qui)\W{1,3}(?:\w+\W{1,3})?"
        r"(?:ci-dessus|precede\w*|plus haut|avant)\b",
        # persona without limits / no longer an assistant
        r"\b(?:tu es|vous etes|tu seras|tu deviens)\b" + S + r"{0,60}?\b(?:sans (?:aucune? |le moindre )?"
        r"(?:restrictions?|filtres?|limites?|censure|regles?|limitations?)|ne refuse\w* jamais"
        r"|dan\b)",
        r"\b(?:tu n'es plus|vous n'etes plus)\b" + S + r"{0,20}?\b(?:assistant|ia|chatbot|modele)",
        r"\b(?:tes|vos) (?:restrictions|limites|filtres|regles)" + S + r"{0,20}?\b(?:sont |ont ete )?"
        r"(?:levees|supprimees|desactivees|annulees)",
        r"\b(?:ton|votre) mode (?:developpeur|dev|debug|sans restriction)" + S + r"{0,30}?\bactiv",
        # hidden instructions asked for
        r"\b(?:revele|affiche|montre|donne|imprime|repete|ecris|divulgue|dis)\w*\b" + S + r"{0,30}?"
        r"\b(?:instructions?|consignes?|configuration|parametres|message) (?:cachee?s?|secrete?s?|"
        r"internes?|initiale?s?|d'origine|systeme|du systeme)",
        r"\brepet\w+\b" + S + r"{0,30}?\b(?:mot pour mot|mot a mot|textuellement|a l'identique)" + S
        + r"{0,40}?\b(?:texte|message|instructions?|prompt)",
    ),
    strong=(
        r"\b(?:a|aux|pour|a l'attention d[eu]) (?:l'|le |la |les |tout |toute |tous les "
        r"|toutes les |chaque )?(?:[\w'-]+ ){0,3}?" + _FR_M + r"\s{0,2}[:—–]",
        r"\b(?:note|message|avis|instruction|consigne|notification)s? (?:du |de |d')?(?:systeme"
        r"|l'administrateur)\s{0,2}[:—–]",
        r"\bsi (?:tu es|vous etes|t'es) (?:un |une |l'|le |la )?(?:\w+ ){0,2}?" + _FR_M,
        r"\b(?:note|message|instructions?|consignes?|remarque|avis|rappel|info|information|p\.?s\.?"
        r"|attention|important|directive|ordre|requete)\W{1,3}(?:(?:destinee?s? |adressee?s? )?"
        r"(?:pour|a|aux|a l'attention d[eu])\W{1,3})(?:l'|le |la |les |tout |toute |tous les "
        r"|toutes les |chaque |votre |ton |ta )?(?:[\w'-]+ ){0,4}?" + _FR_M,
        r"\b(?:a|aux|pour) (?:l'|le |la |les |tout |toute |tous les |toutes les |chaque "
        r"|n'importe quel"
        r"(?:le)? )?(?:\w+ )?" + _FR_M + r"\W{0,3}(?:qui|traitant|lisant|resumant|analysant|evaluant"
        r"|charge\w* de)\b" + r"[^.!?\n]{0,60}?(?:\b(?:ce|cet|cette|ces|mon|ma|mes|notre|nos)\b|[:—–])",
        r"\b" + _FR_M + r" (?:qui|charge\w* de) (?:lit|lisent|lira|traite|traitent|resume|resument|"
        r"analyse|analysent|evalue|evaluent|parcourt|indexe|recoit|trie)\b" + r"[^.!?\n]{0,60}?(?:\b(?:ce|cet|cette|ces|mon|ma|mes|notre|nos)\b|[:—–])",
    ),
    directive=(
        r"\b(?:(?:dis|dites|reponds|repondez|ecris|ecrivez|affiche|affichez|envoie|envoyez"
        r"|transfere"
        r"|transferez|transmets|transmettez|ajoute|ajoutez|insere|inserez|supprime|supprimez|efface"
        r"|effacez|recommande|recommandez|classe|classez|mentionne|mentionnez|affirme|affirmez"
        r"|ignore|ignorez|oublie|oubliez|cloture|cloturez|ferme|fermez|redirige|redirigez|renvoie"
        r"|renvoyez|donne|donnez|indique|indiquez|notez|retiens|retenez|memorise|memorisez"
        r"|enregistre|enregistrez|approuve|approuvez|valide|validez|marque|marquez|accepte|acceptez"
        r"|paie|payez|vire|virez|execute|executez|clique|cliquez|telecharge|telechargez|installe"
        r"|installez|visite|visitez|presente|presentez|resume|resumez|traite|traitez|evalue|evaluez"
        r"|considere|considerez|conseille|conseillez|precise|precisez|confirme|confirmez|invite"
        r"|invitez|partage|partagez|copie|copiez|mets|mettez|fais|faites|veuillez|merci de"
        r"|il faut|tu dois|vous devez|doit|doivent|devra|devront)(?:-(?:le|la|les|lui|leur|moi"
        r"|nous))?"
        r"|ne (?:le |la |les |l'|lui |leur |en )?(?:mentionne|dis|dites|revele|signale|parle|montre"
        r"|affiche|demande|informe|previens)\w* (?:pas|jamais|rien))\b"
    ),
    vocative=LABEL + r"(?:(?:cher|chere|bonjour|salut|hey|attention)\W{1,3})?(?:l'|le |mon |ton "
    r"|votre )?" + alt(_FR_M, r"assistante?s?", r"agents?") + r"\s{0,2}[,:!—–]",
    standing=r"\b(?:chaque fois|a chaque fois|toutes les fois|desormais|dorenavant|a partir de "
    r"maintenant|a l'avenir|pour toujours|definitivement|de facon permanente|en permanence"
    r"|permanente?|retiens|memorise|souviens-toi|garde en memoire|toujours|a chaque (?:reponse"
    r"|message)"
    r"|quand on te demande)\b",
    hostile=(
        r"\b(?:quelqu'un|n'importe qui|qui que ce soit|tout le monde|toute personne|un inconnu)\b" + S + r"{0,80}?" + _FR_SECRET + r"(?:(?!\bne\b|\bn'|\bjamais\b|\bpas\b)[^.!?。！？\n]){0,60}?\b(?:donne|dis|dites|communique|revele|envoie|transmets|file|passe)\w*",
        r"\b(?:nouvel|nouveau|nouvelles?) (?:iban|rib|compte bancaire|coordonnees bancaires)\b"
        r"|\b(?:iban|rib|coordonnees bancaires|compte bancaire) (?:a|ont) change",
        r"\b(?:dis|dites|indique|indiquez|explique|expliquez|previens|prevenez|informe"
        r"|informez)\w*\W{1,3}(?:a |aux )?(?:l'utilisat\w+|les utilisat\w+|le client|les clients"
        r"|au client|aux clients)" + S + r"{0,120}?" + DESTINATION,
        r"\bcomme (?:un ordre|une instruction|une commande|si (?:ca|cela"
        r"|c'etait)(?: venait)?)? ?(?:venant )?de (?:moi|l'administrateur|la direction)\b",
        r"\bmeme si\b" + S + r"{0,60}?\b(?:autre chose|le contraire|autrement|differemment|une autre)\b",
        r"\bsans (?:en |le |la |l'|les |lui |me |m'|nous )?(?:informer|prevenir|avertir|aviser"
        r"|dire|demander|"
        r"verifi\w+|confirm\w+|controle\w*|validation|autorisation)\b",
        r"\bne (?:le |la |les |l'|lui |leur |en |rien )?(?:\w+ )?(?:mentionne|signale|dis|dites"
        r"|inform|previen|preven|montr|affich|demand)\w* (?:pas|jamais|rien)\b",
        r"\b(?:discretement|secretement|en secret|en douce|a son insu|a l'insu|en cachette)\b",
        r"\b(?:considere|traite|marque|tiens)\w*\b" + S + r"{0,40}\bcomme (?:approuv|valid|autoris|"
        r"verifi|legitime|fiable|authentique|venant de moi)",
        r"\b(?:supprim|effac|detrui)\w*\b" + S + r"{0,30}\b(?:pieces? jointes?|e-?mails?|courriels"
        r"|fichiers|donnees|messages?)\b",
        r"\b(?:renvo|redirig|envo|dirig|orient|invit|dis)\w*\W{1,3}(?:-?(?:le|la|les|lui|leur)\b|"
        r"l'utilisat\w+|les utilisat\w+|les? clients?)" + S + r"{0,80}?" + DESTINATION,
        _FR_SHARE + S + r"{0,80}?" + alt(_FR_SECRET, r"tou[ts]", r"copie") + S + r"{0,80}?"
        + DESTINATION,
        _FR_SHARE + S + r"{0,60}?" + _FR_SECRET,
        r"\b(?:ajout|inser|met|inclu)\w*\b" + S + r"{0,40}\b(?:lien|url|adresse)\b" + S + r"{0,30}?"
        + DESTINATION,
        r"\b(?:telecharg|install)\w*" + S + r"{0,60}?" + DESTINATION,
        r"\bdonne\w*" + S + r"{0,60}?" + DESTINATION + r"\S*\.(?:exe|apk|msi|sh|bat|dmg|scr|ps1|jar)\b",
        r"\b(?:dis|conseill|recommand|suggere|pousse)\w*" + S + r"{0,40}?\b(?:arret|interromp|abandonn"
        r"|cess)\w*\b" + S + r"{0,20}\b(?:traitement|medicaments?|therapie)",
        r"\binsult\w*\W{1,3}(?:\w+\W{1,3}){0,2}?(?:l'utilisat|les utilisat|le client|les clients)",
    ),
    payment=(
        r"\b(?:pai|pay|vir|vers|regl|utilis)\w*\b" + S + r"{0,60}?(?:iban|\brib\b|compte|carte)" + S
        + r"{0,40}?" + DESTINATION,
    ),
    exfil=sendout(_FR_SHARE, _FR_SECRET),
)


# --- Spanish ----------------------------------------------------------------------------------
_ES_M = alt(
    r"(?:asistente|agente|sistema|modelo|herramienta|robot|programa|bot)s?[ -](?:de |del )?(?:ia"
    r"|llm|gpt)\b",
    r"(?<![\w])(?:ia|i\.a\.|llm)\b", r"chatbots?", r"modelos? de lenguaje",
    r"inteligencias? artificiales?", r"asistentes? (?:virtual|inteligente|digital)(?:es)?",
)
_ES_SHARE = r"\b(?:envi|mand|reenvi|transfi|transmit|compart|copi|publi|comunic|divulg|revel|d[ae]l[eo]s?\b|proporcion|redirig)\w*"
_ES_SECRET = alt(
    r"contrasenas?", r"claves?(?: de (?:acceso|api))?", r"credenciales", r"tokens?",
    r"codigos? (?:de verificacion|secreto|pin|2fa|de acceso|de seguridad)", r"numeros? de (?:la )?tarjeta",
    r"tarjetas? (?:de credito|bancaria)", r"historial", r"libreta de direcciones", r"contactos",
    r"(?:todos )?(?:los|sus|tus|mis) (?:correos|mensajes|e-?mails|conversaciones)",
    r"datos (?:personales|del usuario|de clientes)", r"lista (?:completa )?de clientes",
)
_ES_OVR = (
    r"(?<!que )\b(?:ignora|ignore|ignorad|ignoren|olvida|olvide|olvidad|olviden|olvidate de"
    r"|descarta|descarte|desecha|omite|omita|no hagas caso (?:a|de)|haz caso omiso (?:a|de)"
    r"|no sigas|no obedezcas|salta(?:te)?|pasa por alto|pase por alto|prescinde de|desobedece"
    r"|infringe|deja de lado|(?:debes|tienes que|puedes|vas a|hay que) (?:\w+ )?(?:ignorar"
    r"|olvidar|desobedecer|saltarte))\b"
)
_ES_OWN = r"(?:tus|sus|su|tu|todas (?:las|tus|sus)|todos (?:los|tus|sus))"
_ES_RULES = (
    r"(?:instrucciones|indicaciones|reglas|normas|directrices|restricciones|limites|filtros"
    r"|politicas|principios|ordenes|pautas|programacion|protocolos?)"
)
_ES_ART = r"(?:las|los|la|el|estas|esas|esta)"
_ES_POST = (
    r"(?:de antes|de hasta ahora|anterior\w*|previ[ao]s?|inicial\w*|original\w*|del sistema"
    r"|de seguridad|de arriba|del usuario"
    r"|que (?:te|le) (?:dieron|han dado|dio|ha dado|dan))"
)
ES = Lexicon(
    lang="es",
    gate=(
        " la ", " mi ", " su ", " sus ", " te ", " se ", " en ", " muy ", " pero ", " esta ",
        " este ", " como ", " los ", " las ", " el ", " una ", " del ", " que ", " para ",
        " por ", " tu ", " tus ", " es ", " y ", "siempre", "cada vez", " sin ", "¿", "¡",
    ),
    override=(
        r"\b(?:tu|su) (?:nuevo|nueva|verdadero|verdadera|unico|unica) (?:rol|papel|tarea|mision"
        r"|objetivo|funcion)\b" + S + r"{0,10}?\b(?:es|sera|consiste en) (?:ahora )?\w",
        r"\b(?:comportate|actua|responde)\b" + S + r"{0,40}?\bcomo" + S + r"{0,40}?\bsin (?:ninguna |ningun )?(?:restricciones|filtros?|limites|censura|reglas)",
        r"\b(?:ignora|ignore|olvida|olvide)\W{1,3}(?:todo )?lo que te (?:dijeron|han dicho"
        r"|pidieron)\b",
        r"(?<!que )\b(?:ignora|ignore|olvida|olvide|deja|omite"
        r"|no respondas a)\W{1,3}(?:\w+\W{1,3}){0,2}?(?:pregunta|peticion|solicitud|tarea|resena"
        r"|mensaje|texto)\b.{0,60}?\b(?:respond|di\b|dile|escrib|contest|muestr)\w*.{0,200}?" + DESTINATION,
        r"\b(?:reglas|normas|politicas|restricciones|directrices) (?:de seguridad|eticas)\b" + S + r"{0,20}?\bno (?:se )?aplican\b",
        r"\bya no (?:tienes|hay) (?:ninguna |ningun )?(?:reglas?|restricciones|limites|filtros?)\b",
        r"\bmodo (?:desarrollador|dev|debug)" + S + r"{0,30}?\bsin (?:restricciones|filtros?|limites)",
        *own_rules(_ES_OVR, _ES_OWN, _ES_ART, _ES_RULES, _ES_POST),
        r"\b(?:ignora|ignore|olvida|olvide|haz caso omiso de|no hagas caso de|descarta)\W{1,3}"
        r"(?:lo|todo lo)\W{1,3}(?:anterior|de arriba|que (?:te )?(?:dijeron|han dicho))\b",
        r"\b(?:eres|seras|te conviertes en|ahora eres)\b" + S + r"{0,60}?\b(?:sin (?:ninguna |ningun )?"
        r"(?:restricciones?|filtros?|limites?|censura|reglas?|limitaciones?)|nunca se niega|dan\b)",
        r"\bya no eres\b" + S + r"{0,20}?\b(?:asistente|ia|chatbot|modelo)",
        r"\btus (?:restricciones|limites|filtros|reglas)" + S + r"{0,20}?\b(?:se han |han sido |estan )?"
        r"(?:eliminad|levantad|desactivad|anulad)",
        r"\b(?:tu|su) modo (?:desarrollador|dev|debug|sin restricciones)" + S + r"{0,30}?\bactiv",
        r"\b(?:revela|muestra|dime|imprime|repite|escribe|divulga|ensena)\w*\b" + S + r"{0,30}?"
        r"\b(?:instrucciones|indicaciones|configuracion|mensaje) (?:ocultas?|secretas?|internas?|"
        r"iniciales|originales|de sistema|del sistema)",
        r"\b(?:repit|repet)\w+\b" + S + r"{0,30}?\b(?:palabra por palabra|literalmente|textualmente)"
        + S + r"{0,40}?\b(?:texto|mensaje|instrucciones|prompt)",
    ),
    strong=(
        r"\b(?:a|al|para) (?:el |la |los |las |todo |toda |todos los |todas las |cada "
        r"|cualquier )?(?:[\w'-]+ ){0,3}?" + _ES_M + r"\s{0,2}[:—–]",
        r"\b(?:nota|mensaje|aviso|instruccion|notificacion)(?:es)? del? (?:sistema"
        r"|administrador)\s{0,2}[:—–]",
        r"\bsi (?:eres|usted es|sois) (?:un |una |el |la )?(?:\w+ ){0,2}?" + _ES_M,
        r"\b(?:nota|mensaje|instruccion(?:es)?|aviso|recordatorio|informacion|p\.?s\.?|atencion"
        r"|importante|directiva|orden|solicitud)\W{1,3}(?:(?:dirigid[oa]s? |destinad[oa]s? )?"
        r"(?:para|a|al)\W{1,3})(?:el |la |los |las |todo |toda |todos los |todas las |cada "
        r"|cualquier )?"
        r"(?:[\w'-]+ ){0,4}?" + _ES_M,
        r"\b(?:a|al|para) (?:el |la |los |las |todo |toda |todos los |todas las |cada |cualquier )?"
        r"(?:\w+ )?" + _ES_M + r"\W{0,3}(?:que|procesando|leyendo|resumiendo|analizando|evaluando"
        r"|encargad\w+ de)\b" + r"[^.!?\n]{0,60}?(?:\b(?:este|esta|estos|estas|esto|mi|mis|nuestr[oa]s?)\b|[:—–])",
        r"\b" + _ES_M + r" (?:que|encargad\w+ de) (?:lee|leen|lea|lean|procesa|procesan|procese"
        r"|procesen|resume|resumen|resuma|analiza|analizan|evalua|evaluan|evalue|revisa|revise"
        r"|recibe)\b" + r"[^.!?\n]{0,60}?(?:\b(?:este|esta|estos|estas|esto|mi|mis|nuestr[oa]s?)\b|[:—–])",
        r"\bsi eres\b" + S + r"{0,20}?" + _ES_M,
    ),
    directive=(
        r"\b(?:(?:di|decid|responde|responda|contesta|conteste|escribe|escriba|muestra|muestre"
        r"|envia"
        r"|envie|enviad|manda|mande|reenvia|reenvie|transfiere|anade|anada|agrega|agregue|incluye"
        r"|incluya|inserta|borra|borre|elimina|elimine|recomienda|recomiende|menciona|mencione"
        r"|afirma|afirme|ignora|ignore|ignorad|olvida|olvide|omite|omita|clasifica|marca|marque"
        r"|cierra|cierre|aprueba|apruebe|acepta|acepte|paga|pague|ejecuta|ejecute|instala|descarga"
        r"|visita|haz|haga|pon|ponga|dale|trata|trate|considera|considere|confirma|confirme"
        r"|comparte"
        r"|copia|redirige|guarda|guarde|recuerda|recuerde)(?:lo|la|los|las|le|les|me|nos|se)*"
        r"|debes|debe|deben|deberas|debera|tienes que|hay que|por favor|no \w+(?:as|es|eis|ais))\b"
    ),
    vocative=LABEL + r"(?:(?:querid[oa]|estimad[oa]|hola|oye|atencion)\W{1,3})?(?:el |mi |tu |su )?"
    + alt(_ES_M, r"asistentes?", r"agentes?") + r"\s{0,2}[,:!—–]",
    standing=r"\b(?:cada vez que|siempre que|siempre|a partir de ahora|de ahora en adelante|desde ahora"
    r"|en adelante|para siempre|de forma permanente|permanente|recuerda|memoriza|guarda en (?:la )?"
    r"memoria|en cada respuesta)\b",
    hostile=(
        r"\b(?:alguien|cualquiera|quien sea|cualquier persona|un desconocido)\b" + S + r"{0,80}?" + _ES_SECRET + r"(?:(?!\bno\b|\bnunca\b|\bjamas\b)[^.!?。！？\n]){0,60}?\b(?:da|dale|dasela|daselo|di|dile|dísela|comunica|revela|envia|manda|pasa)\w*",
        r"\b(?:nueva|nuevo)s? (?:cuenta bancaria|iban|datos bancarios)\b|\b(?:cuenta bancaria"
        r"|iban|datos bancarios) (?:ha|han) cambiado",
        r"\b(?:di|dile|diles|digale|indica|indicale|explica|explicale|avisa|avisale"
        r"|informa)\w*\W{1,3}(?:al usuario|a los usuarios|al cliente|a los clientes)" + S + r"{0,120}?" + DESTINATION,
        r"\bcomo (?:si (?:viniera|fuera) )?(?:una orden |una instruccion )?(?:de mi|mia"
        r"|del administrador)\b",
        r"\baunque\b" + S + r"{0,60}?\b(?:otra cosa|lo contrario|otra|otro)\b",
        r"\bsin (?:avisar|informar|notificar|decir|preguntar|comprobar|verificar|confirmar"
        r"|confirmacion"
        r"|verificacion|revision|autorizacion|permiso)\w*\b",
        r"\bno (?:se |lo |la |le |les |te )?(?:lo |la |le )?(?:menciones|mencioneis|mencione"
        r"|digas|diga"
        r"|avises|avise|informes|informe|notifiques|muestres|preguntes|vuelvas a preguntar)\b",
        r"\b(?:en secreto|secretamente|a escondidas|discretamente|sin que (?:lo |se )?(?:sepa"
        r"|note))\b",
        r"\b(?:trat|consider|marc)\w*\b" + S + r"{0,40}\bcomo (?:aprobad|autorizad|verificad|legitim"
        r"|confiable|autentic|si vinier)",
        r"\b(?:borr|elimin|destru)\w*\b" + S + r"{0,30}\b(?:adjuntos?|correos?|archivos|datos|mensajes?)\b",
        r"\b(?:envia|enviale|envialo|enviala|mandalo|mandala|redirig|dirig|dile|diles|llev)\w*\b" + S
        + r"{0,80}?" + DESTINATION,
        _ES_SHARE + S + r"{0,80}?" + alt(_ES_SECRET, r"tod[oa]s?", r"copia") + S + r"{0,80}?" + DESTINATION,
        _ES_SHARE + S + r"{0,60}?" + _ES_SECRET,
        r"\b(?:anad|agreg|insert|pon|inclu)\w*\b" + S + r"{0,40}\b(?:enlace|link|url|direccion)\b" + S
        + r"{0,30}?" + DESTINATION,
        r"\b(?:descarg|instal)\w*" + S + r"{0,60}?" + DESTINATION,
        r"\b(?:da|dale)\b" + S + r"{0,60}?" + DESTINATION + r"\S*\.(?:exe|apk|msi|sh|bat|dmg|scr|ps1|jar)\b",
        r"\b(?:dile|diles|di|aconsej|recomiend|sugier)\w*\b" + S + r"{0,40}?\b(?:dej|abandon|suspend"
        r"|interrump)\w*\b" + S + r"{0,20}\b(?:tratamiento|medicacion|medicamentos?)",
        r"\binsult\w*\W{1,3}(?:\w+\W{1,3}){0,2}?(?:al usuario|a los usuarios|al cliente)",
    ),
    payment=(
        r"\b(?:pag|transfi|ingres|usa|utiliz)\w*\b" + S + r"{0,60}?(?:iban|cuenta|tarjeta)" + S
        + r"{0,40}?" + DESTINATION,
    ),
    exfil=sendout(_ES_SHARE, _ES_SECRET),
)
