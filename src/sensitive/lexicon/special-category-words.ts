import type { SpecialCategory } from "../categories.js";

/**
 * Special-category words (GDPR art. 9 and art. 10) beyond English, by category, in the languages
 * of credential-words.ts that users write most (de fr es it pt nl pl tr sv da no cs ru uk el ro
 * hu ja zh ko, with id vi ar hi where a term is common). English phrasing stays in
 * special-category.ts.
 *
 * Source: the translation tables of the English Wiktionary entries of each term — the conditions
 * of the WHO's list of leading chronic diseases and of ICD-10 chapter F (mental and behavioural
 * disorders, addiction), the common drug classes (insulin, antidepressant, methadone,
 * chemotherapy), "criminal record", "previous conviction", "prison", "probation", the adherent
 * names of the world religions, "gay", "lesbian", "bisexual", "transgender", "non-binary", "coming
 * out", "trade union" and the national union confederations, "vote", "party member", the main
 * parliamentary parties of those countries, "descent"/"origin", the ethnic minorities named in
 * the Council of Europe's minority-language charter, and "fingerprint", "iris scan", "voiceprint".
 * Not written from any test corpus.
 *
 * `anywhere` terms are unambiguous in their language; `aboutPerson` terms count only in a clause
 * with a personal subject or possessive (PERSON_WORDS: "ich", "je suis", "mi", "私", "user", …),
 * since they also name things ("Krebs" is a crab, "la depresión tropical" weather, "Orthodox" a
 * style). Entry syntax: see credential-words.ts.
 */
export interface SpecialTerms {
  anywhere: readonly string[];
  aboutPerson: readonly string[];
}

export const SPECIAL_CATEGORY_WORDS: Readonly<Partial<Record<SpecialCategory, SpecialTerms>>> = {
  health: {
    anywhere: [
      // addiction
      "addiction", "addictions", "addicted", "drug addict", "sucht", "spielsucht", "alkoholsucht", "drogensucht", "magersucht", "kaufsucht", "nikotinsucht", "internetsucht", "suchtig", "suchtkrank*", "alkoholabhangig*", "drogenabhangig*", "medikamentenabhangig*", "entzugsklinik", "toxicomane", "toxicomanie", "alcoolisme", "addictologie",
      "adiccion", "adicto", "adicta", "drogadict*", "alcoholismo", "ludopatia", "tossicodipenden*", "alcolista", "alcolismo", "ludopatia", "viciado", "viciada", "alcoolatra", "alcoolismo", "dependente quimic*",
      "*verslaving", "verslaafd*", "alcoholist*", "uzaleznien*", "uzalezniony", "uzalezniona", "alkoholizm", "alkoholik*", "bagimlilig*", "bagimliyim", "alkolik*", "alkoholism", "alkoholist*", "narkoman*", "alkoholizmus",
      "наркоман*", "алкоголизм*", "алкоголик*", "наркозависим*", "игромани*", "依存症", "アルコール依存", "成瘾", "上瘾", "酗酒", "戒毒", "중독자", "알코올 중독", "도박 중독",
      // chronic and serious conditions
      "diabet*", "cukrzyc*", "diyabet*", "диабет*", "糖尿病", "당뇨*", "epilep*", "epilepsi*", "padaczk*", "эпилепс*", "てんかん", "癫痫", "뇌전증", "간질",
      "schizophren*", "schizofren*", "esquizofren*", "sizofren*", "шизофрен*", "統合失調症", "精神分裂", "조현병", "anorex*", "anoress*", "anoreks*", "anorexi*", "анорекс*", "拒食症", "厌食症", "거식증", "bulimi*", "булими*", "過食症",
      "multiple sklerose", "sclerose en plaques", "esclerosis multiple", "sclerosi multipla", "esclerose multipla", "stwardnienie rozsiane", "multipl skleroz", "рассеянн* склероз*", "多発性硬化症", "多发性硬化", "다발성 경화증",
      "crohn*", "morbus crohn", "colitis ulcerosa", "rectocolite", "fibromyalg*", "fibromialg*", "fibromiyalji", "фибромиалги*", "線維筋痛症", "纤维肌痛",
      "alzheimer*", "parkinson*", "demenz*", "demence", "demencia", "demenza", "demencia", "dementie", "demencj*", "demans", "деменц*", "認知症", "痴呆", "치매", "autismus", "autiste", "autisme", "autismo", "autista", "autyzm*", "otizm*", "аутизм*", "自閉症", "自闭症", "자폐",
      "hiv", "vih", "вич", "エイズ", "艾滋", "에이즈", "hepatit*", "гепатит*", "肝炎", "乙肝", "丙肝", "간염", "leukam*", "leucemi*", "leukemi*", "białaczk*", "lösemi", "лейкоз*", "лейкеми*", "白血病", "백혈병",
      "chemotherap*", "chimiotherap*", "quimioterap*", "chemioterap*", "kemoterapi", "cellgift*", "химиотерап*", "抗がん剤", "化疗", "항암*", "dialyse", "dialysis", "dialisis", "dialisi", "hemodialise", "dializ*", "diyaliz", "диализ*", "透析", "투석",
      "insulin*", "insuline", "insulina", "insulin", "insulinë", "insülin", "инсулин*", "インスリン", "胰岛素", "인슐린", "antidepressiv*", "antidepresseur*", "antidepresiv*", "antidepressiv*", "antydepresant*", "antidepresan*", "антидепрессант*", "抗うつ薬", "抗抑郁", "항우울제",
      "methadon*", "methadone", "metadon*", "метадон*", "メサドン", "美沙酮", "메타돈", "antiretrovira*", "antirretrovira*", "psychiat*", "psychiatre", "psiquiatr*", "psichiatr*", "psykiat*", "психиатр*", "精神科", "心療内科", "정신과",
      "panikattack*", "attaque de panique", "crise de panique", "crises d'angoisse", "ataque de panico", "ataques de panico", "attacchi di panico", "attacco di panico", "ataque de panico", "paniekaanval*", "atak* paniki", "panik atak", "panik bozukluk", "паническ* атак*", "パニック障害", "パニック発作", "惊恐发作", "공황장애",
      "うつ病", "鬱病", "抑郁症", "우울증", "躁うつ病", "双相情感障碍", "조울증", "ptbs", "ptsd", "tspt", "tept", "adhs", "tdah", "adhd", "zwangsstorung", "essstorung*", "trouble alimentaire", "trastorno alimentario", "disturbo alimentare", "eetstoornis",
    ],
    aboutPerson: [
      "depression", "depressionen", "depressiv*", "depressif", "depressive", "depresion", "depresivo", "depresiva", "depressione", "depresso", "depressa", "depressao", "deprimid*", "depressie", "depressief", "depresj*", "depresyon*", "depression", "депресс*",
      "krebs", "cancer", "cancro", "cancer", "kanker", "rak", "kanser", "рак", "asthma", "asthme", "asma", "astma", "astim", "астм*", "喘息", "哮喘", "천식", "bipolar*", "bipolaire", "bipolare", "biegunow*", "биполяр*", "alcoholic", "alcoholico", "alcoholica", "alcoolique", "лечусь", "通院", "治疗中", "치료 중",
      "allergi*", "allergie", "alergi*", "аллерги*", "アレルギー", "过敏", "알레르기", "schwanger*", "enceinte", "embarazad*", "incinta", "gravida", "zwanger", "w ciazy", "hamile", "gravid", "беремен*", "妊娠", "怀孕", "임신",
      "diagnostiziert", "diagnostique", "diagnosticad*", "diagnosticat*", "gediagnosticeerd", "zdiagnozowan*", "teshis", "диагноз*", "診断", "确诊", "진단",
    ],
  },
  criminal_record: {
    anywhere: [
      "criminal record", "criminal records", "years in prison", "years in jail", "months in prison", "months in jail", "jahre im gefangnis", "jahre haft", "ans de prison", "mois de prison", "anos de carcel", "anos de prision", "anni di carcere", "anos de prisao", "anos de cadeia", "jaar cel", "jaar gevangenisstraf", "lat wiezienia", "yil hapis", "ar i fangelse", "лет тюрьмы", "лет колонии", "prior conviction", "previous conviction", "convicted", "felony", "felon", "on probation", "on parole", "served time", "jail time", "prison sentence", "suspended sentence", "sex offender", "sex offenders register",
      "vorstraf*", "vorbestraft", "bewahrungsstrafe", "auf bewahrung", "haftstrafe", "freiheitsstrafe", "im gefangnis", "im knast", "fuhrungszeugnis", "casier judiciaire", "condamne pour", "condamnee pour", "en prison", "sursis", "en conditionnelle", "antecedentes penales", "condenado por", "condenada por", "en la carcel", "en prision", "libertad condicional",
      "precedenti penali", "fedina penale", "condannato per", "condannata per", "in carcere", "liberta vigilata", "antecedentes criminais", "ficha criminal", "cadastro criminal", "condenado por", "na prisao", "na cadeia", "liberdade condicional", "strafblad", "veroordeeld voor", "in de gevangenis", "taakstraf", "voorwaardelijke straf",
      "karany", "karana", "w wiezieniu", "kartoteke", "niekaralnosc", "sabika*", "hapis yattim", "hapiste", "mahkum oldum", "straffregister", "belastningsregister", "domd for", "i fangelse", "straffattest", "судимост*", "осужден*", "осуждён*", "в тюрьме", "отсидел*", "условн* срок*",
      "前科", "懲役", "刑務所", "服役", "執行猶予", "犯罪记录", "案底", "坐牢", "判刑", "缓刑", "전과", "징역", "교도소", "수감", "집행유예",
    ],
    aboutPerson: [
      "arrested", "charged with", "court date", "in prison", "in jail", "incarcerated", "sentenced", "conviction", "wyrok", "festgenommen", "verhaftet", "verurteilt", "gefangnis", "arrete", "arretee", "condamne", "condamnee", "prison", "detenido", "detenida", "arrestad*", "condenad*", "carcel", "prision", "arrestato", "arrestata", "condannat*", "carcere", "condenad*", "prisao", "cadeia",
      "gearresteerd", "veroordeeld", "gevangenis", "aresztowan*", "skazan*", "wiezieni*", "tutuklandim", "gozaltina", "hapis", "domd", "fangelse", "арестован*", "задержан*", "тюрьм*", "逮捕", "拘留", "체포", "구속",
    ],
  },
  sexual_orientation: {
    anywhere: [
      "lesbisch*", "lesbienne", "lesbiennes", "lesbiana", "lesbianas", "lesbica", "lesbiche", "lesbica", "lesbijk*", "lezbiyen*", "lesbisk*", "лесбиянк*", "レズビアン", "女同性恋", "레즈비언",
      "homosexuell*", "homosexuel*", "homosexual*", "omosessual*", "homossexual*", "homoseksual*", "homoseksueel", "escinsel*", "гомосексуал*", "同性愛", "同性恋", "동성애*",
      "bisexuell*", "bisexuel*", "bisexual*", "bisessual*", "bissexual*", "biseksual*", "biseksueel", "biseksuel*", "бисексуал*", "バイセクシャル", "バイセクシュアル", "双性恋", "양성애*",
      "transgender", "transsexuell*", "transgenre", "transexual*", "transessuale", "transgenero", "transpersoon", "transpłciow*", "транссексуал*", "трансгендер*", "トランスジェンダー", "跨性别", "트랜스젠더",
      "nichtbinar", "non-binaire", "no binario", "no binaria", "non binario", "non binaria", "nao binario", "nao binaria", "non-binair", "niebinarn*", "ickebinar", "небинарн*", "ノンバイナリー", "非二元性别", "논바이너리",
      "coming-out", "sortir du placard", "salir del armario", "sali del armario", "sair do armario", "uit de kast", "wyjsc z szafy", "dolaptan cik*", "カミングアウト", "出柜", "커밍아웃", "ゲイ", "게이",
    ],
    aboutPerson: ["gay", "schwul", "homo", "gej*", "гей*", "queer", "pansexu*", "asexu*"],
  },
  religion: {
    anywhere: [
      "muslimisch*", "musulman*", "musulman", "musulmana", "musulmano", "muculman*", "moslim*", "muzulman*", "musluman*", "мусульман*", "イスラム教", "穆斯林", "伊斯兰教", "무슬림", "이슬람교",
      "judisch*", "juif", "juive", "judio", "judia", "ebrea", "judeu", "judia", "joods", "zydowsk*", "yahudi*", "judisk", "еврей*", "иуде*", "ユダヤ教", "犹太教", "유대교",
      "jehova*", "jehovah", "geova", "jeova", "jehowy", "иегов*", "エホバ", "耶和华见证人", "여호와의 증인", "latter-day saints", "latter day saints", "letzten tage", "mormon*", "mormone", "mormón", "мормон*", "モルモン",
      "buddhist*", "bouddhiste", "budista", "buddista", "boeddhist*", "buddyst*", "budist", "буддист*", "仏教徒", "佛教徒", "불교 신자", "hinduist*", "hindou", "hindoue", "hindu", "induista", "hindoe", "hindoeist*", "индуист*", "ヒンドゥー教", "印度教", "힌두교",
      "sikh", "sikhs", "atheist*", "athee", "ateo", "atea", "ateu", "ateia", "atheist", "atheiste", "ateist*", "атеист*", "無神論", "无神论", "무신론", "agnostik*", "agnostique", "agnostico", "agnostica", "agnost*", "агностик*",
      "教徒", "信徒", "信者", "신자", "교인", "天主教", "基督教", "キリスト教", "기독교", "천주교", "espirita", "espiritismo", "spirite", "kardecista",
    ],
    aboutPerson: [
      "katholisch", "katholik*", "catholique", "catolico", "catolica", "cattolico", "cattolica", "katholiek", "katolik*", "katolsk", "католи*", "evangelisch", "evangelique", "evangelico", "evangelica", "ewangeli*", "evanjelik", "evangelisk", "евангели*",
      "protestant*", "protestante", "orthodoxe", "ortodoxo", "ortodoxa", "ortodosso", "ortodossa", "orthodoxe", "православн*", "christ", "christin", "chretien", "chretienne", "cristiano", "cristiana", "cristao", "crista", "christen", "chrzescijan*", "hristiyan*", "kristen", "христиан*",
      "gelovig", "praktizierend*", "religios", "religiose", "religioser", "religioso", "religiosa", "religieux", "religieuse", "religioso", "religiosa", "gläubig*", "glaubig*", "croyant", "croyante", "creyente", "credente", "crente", "wierzac*", "dindar", "troende", "верующ*",
    ],
  },
  political_opinion: {
    anywhere: [
      "parteimitglied*", "membre du parti", "afiliado al partido", "afiliada al partido", "iscritto al partito", "iscritta al partito", "filiado ao partido", "filiada ao partido", "partijlid", "lid van de partij", "czlonek partii", "partiuye*", "partimedlem", "член партии", "党員", "党员", "당원",
      "je milite", "militant politique", "militante politique",
    ],
    aboutPerson: [],
  },
  ethnicity: {
    anywhere: [
      "系アメリカ人", "日系", "在日", "華裔", "华裔", "非裔", "亚裔", "교포",
      "sinti", "sintezza", "romni", "romnja", "gitano", "gitana", "gitan", "gitane", "zingar*", "cigano", "cigana", "zigeuner*", "cygan*", "cingene", "zigenare", "цыган*",       "kurde", "kurdin", "kurdo", "kurda", "curdo", "curda", "koerd*", "kurdyj*", "kurdisk", "курд*", "berbere", "bereber", "amazigh", "uigur*", "ouighour*", "uiguri", "уйгур*", "ウイグル", "维吾尔", "hindoestaan*", "afro-*", "afrodescendiente*", "afrodescendant*", "afrobrasileir*", "afrodeutsch*", "metis", "metisse", "mestizo", "mestiza", "meticcio", "mestico", "mestica", "mulat*",
      "indigene", "autochtone", "indigena", "indigeno", "inheems", "urfolk", "коренн* народ*", "先住民", "原住民", "원주민", "ainu", "アイヌ", "samisk", "saamelai*",
    ],
    // Origin words also describe products and data ("pays d'origine", "Herkunft der Daten").
    aboutPerson: ["d'origine", "de origen", "di origine", "de origem", "afkomst", "herkunft", "abstammung", "pochodzenia", "kokenli", "asilli", "происхождени*", "roma"],
  },
  trade_union: {
    anywhere: [
      "gewerkschaft*", "gewerkschaftlich*", "gewerkschafter*", "syndicat", "syndicats", "syndique", "syndiquee", "syndicaliste", "sindicato", "sindicatos", "sindicalista", "sindicad*", "sindacato", "sindacati", "sindacalista", "sindacalizzat*", "sindicalizad*",
      "vakbond*", "vakbondslid", "zwiazek zawodowy", "zwiazku zawodowego", "zwiazkow*", "sendika*", "fackforbund*", "facket", "fackligt", "fagforening*", "ammattiliit*", "профсоюз*", "労働組合", "組合員", "労組", "工会", "노동조합", "노조",
    ],
    aboutPerson: [],
  },
  biometric: {
    // Face recognition is a technology as well as data: only someone's ("mon gabarit de reconnaissance faciale").
    aboutPerson: ["gesichtserkennung*", "reconnaissance faciale", "reconocimiento facial", "riconoscimento facciale", "reconhecimento facial", "gezichtsherkenning", "rozpoznawani* twarzy", "yuz tanima", "ansiktsigenkanning", "распознавани* лиц*", "顔認証", "人脸识别", "안면 인식"],
    anywhere: [
      "fingerabdruck*", "fingerabdrucke*", "empreinte digitale", "empreintes digitales", "huella dactilar", "huellas dactilares", "huella digital", "huellas digitales", "impronta digitale", "impronte digitali", "impressao digital", "impressoes digitais", "vingerafdruk*", "odcisk palca", "odciski palcow", "parmak izi", "parmak izim", "fingeravtryck", "отпечат* пальц*", "指紋", "指纹", "지문",
      "iris-scan", "irisscan", "scan de l'iris", "escaneo de iris", "scansione dell'iride", "stimmabdruck", "empreinte vocale", "huella de voz", "impronta vocale", "gesichtsscan", "gesichtsdaten", "donnees biometriques", "datos biometricos", "dati biometrici", "dados biometricos", "biometrische gegevens", "biometrische daten", "dane biometryczne", "biyometrik", "биометри*", "生体認証", "生体情報", "生物识别", "생체",
    ],
  },
};

/**
 * Political opinion said as an act towards a party: a vote, membership or support word in the
 * languages above, with a party in the same clause (PARTY_WORDS or PARTY_NAMES). English is
 * special-category.ts's ("a party" is also a celebration there).
 */
export const POLITICAL_ACTS: readonly string[] = [
  "wahle", "wahlte", "gewahlt", "stimme", "stimmte", "mitglied", "unterstutze", "unterstutzer*", "votes", "voter", "vote pour", "j'ai vote", "membre", "militant*", "milite", "soutiens", "adherent*",
  "voto", "votado", "votare", "votaré", "votei", "votarei", "votamos", "afiliado", "afiliada", "miembro", "militante", "apoyo", "votato", "iscritto", "iscritta", "membro", "sostengo", "filiado", "filiada", "apoio",
  "stem", "stemde", "gestemd", "lid", "steun", "glosuje", "glosowal*", "czlonek", "czlonkiem", "czlonkini*", "popieram", "oy", "uyesi*", "destekliyorum", "rostar", "rostade", "medlem", "stodjer", "голосую", "голосовал*", "член", "поддерживаю",
  "投票", "支持", "入党", "지지", "투표", "가입",
];

/** Words for a political party. */
export const PARTY_WORDS: readonly string[] = ["partei", "parti", "partido", "partito", "partij", "partia", "partii", "partisi", "partiet", "партия", "партии", "党", "黨", "정당"];

/**
 * The main parliamentary parties of the countries of the languages above (Wikipedia's lists of
 * political parties by country). Short acronyms count only beside an act (POLITICAL_ACTS).
 */
export const PARTY_NAMES: readonly string[] = [
  "cdu", "csu", "spd", "fdp", "afd", "grune", "grunen", "linke", "linken", "bsw", "freie wahler",
  "renaissance", "rassemblement national", "rn", "france insoumise", "lfi", "eelv", "pcf", "reconquete", "modem", "les republicains",
  "psoe", "vox", "sumar", "podemos", "erc", "junts", "pnv", "bildu", "partido popular",
  "pd", "partito democratico", "fratelli d'italia", "fdi", "lega", "forza italia", "m5s", "movimento 5 stelle",
  "pt", "psdb", "mdb", "psol", "chega", "iniciativa liberal", "bloco de esquerda", "pcp", "livre",
  "vvd", "pvv", "d66", "cda", "groenlinks", "pvda", "sp", "nsc", "bbb", "christenunie", "sgp", "pvdd", "volt", "ja21", "denk", "fvd",
  "pis", "platforma obywatelska", "koalicja obywatelska", "lewica", "konfederacja", "psl", "akp", "chp", "mhp", "hdp", "iyi parti",
  "socialdemokraterna", "moderaterna", "sverigedemokraterna", "vansterpartiet", "centerpartiet", "liberalerna", "kristdemokraterna", "miljopartiet",
  "единая россия", "кпрф", "лдпр", "自民党", "立憲民主党", "公明党", "共産党", "維新", "国民民主党", "れいわ", "社民党", "参政党", "共产党", "国民党", "民进党", "民進黨", "더불어민주당", "국민의힘", "정의당",
];

/** Trade-union membership said with a union's name: a membership word and a confederation or union in the same clause. */
export const UNION_ACTS: readonly string[] = [
  "mitglied", "membre", "adherent*", "miembro", "afiliado", "afiliada", "membro", "iscritto", "iscritta", "socio", "socia", "filiado", "filiada", "lid", "czlonek", "czlonkini*", "uye*", "medlem", "член", "加入", "가입",
];
export const UNION_NAMES: readonly string[] = [
  "cgil", "cisl", "uil", "dgb", "verdi", "gew", "ig bce", "ig metall", "ngg", "evg", "ogb", "fnv", "cnv", "tco", "saco", "cgt", "cfdt", "cftc", "unsa", "ccoo", "ugt", "cgtp", "opzz",
  "solidarnosc", "turk-is", "hak-is", "kesk", "連合", "민주노총", "한국노총",
];

/** A personal subject or possessive: what makes an ambiguous special-category word about someone. */
export const PERSON_WORDS: readonly string[] = [
  "i", "i'm", "im", "i've", "me", "my", "mine", "myself", "user", "user's", "users", "he", "she", "they", "his", "her", "their", "we", "our",
  "ich", "mich", "mir", "mein", "meine", "meinen", "meinem", "meiner", "bin", "sie", "nutzer", "benutzer", "nutzerin",
  "je", "j'ai", "j'etais", "moi", "mon", "ma", "mes", "suis", "elle", "utilisateur", "utilisatrice",
  "yo", "soy", "estoy", "tengo", "mi", "mis", "ella", "usuario", "usuaria", "me", "fui",
  "io", "sono", "ho", "mio", "mia", "miei", "mie", "lui", "lei", "utente",
  "eu", "sou", "estou", "tenho", "meu", "minha", "fui", "ele", "ela", "usuário",
  "ik", "ben", "heb", "mijn", "hij", "zij", "gebruiker",
  "jestem", "mam", "moj", "moja", "moje", "byłem", "bylem", "bylam", "ona", "uzytkownik",
  "ben", "benim", "bana", "kullanici", "jag", "mitt", "mina", "anvandaren", "jeg", "er", "mig",
  "я", "меня", "мне", "мой", "моя", "мои", "он", "она", "пользователь",
  "私", "僕", "俺", "わたし", "ユーザー", "我", "我的", "用户", "用戶", "저", "제", "나", "내", "저는", "나는", "사용자",
];
