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
  /**
   * Nouns that are another word in a neighbouring language ("Sinto": a Sinto man; Portuguese "sinto",
   * I feel): they count only right after a copula ("ich bin Sinto", "he is Sinto"), where the other
   * language's word cannot stand.
   */
  afterCopula?: readonly string[];
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
      "atstorning*", "spiseforstyrrelse*", "syomishairi*", "zaburzeni* odzywiania", "yeme bozuklug*", "расстройств* пищевого поведения", "摂食障害", "进食障碍", "섭식장애",
      // burnout and psychosomatic care
      "burnout", "burn-out", "psychosomat*", "psicosomat*", "psykosomat*", "психосомат*", "燃え尽き症候群",
      // surgery and conditions of the WHO list not above
      "mastectom*", "mastektom*", "mastectomie", "мастэктом*", "乳房切除", "유방 절제",
      "zoliakie", "coeliaque", "celiaque", "celiaco", "celiaca", "celiachia", "celiaquia", "celiakia", "celiakie", "celiaki", "cøliaki", "keliakia", "coeliakie", "colyak", "целиаки*", "セリアック", "乳糜泻", "셀리악",
      "depresyon ilaci", "depresyon ilaclari", "антидепрессанты",
      // intolerances, anxiety disorders, HIV status
      "癌", "がん患者", "がん治療", "がんと診断", "入院", "住院", "입원", "高血压", "高血圧", "高血壓", "고혈압", "аутист*", "डायबिटीज", "मधुमेह", "कैंसर", "डिप्रेशन", "अवसाद", "ذیابیطس",
      "laktoseintoleranz", "glutenunvertraglichkeit", "*unvertraglichkeit", "intolerance au lactose", "intolerance au gluten", "intolerancia a la lactosa", "intolerancia al gluten", "intolleranza al lattosio", "intolleranza al glutine", "lactose-intolerant*", "nietolerancj*",
      "angststorung*", "trouble anxieux", "troubles anxieux", "trastorno de ansiedad", "disturbo d'ansia", "transtorno de ansiedade", "angststoornis", "zaburzenia lekowe", "anksiyete bozuklug*", "тревожн* расстройств*",
      "sieropositiv*", "seropositi*", "soropositiv*", "hiv-positiv*", "hiv-positief", "вич-положител*",
      // fertility treatment
      "ivf", "in vitro fertilisation", "in vitro fertilization", "in-vitro-fertilisation", "kunstliche befruchtung", "kinderwunschbehandlung", "fecondation in vitro", "fecundacion in vitro", "fecondazione in vitro", "fertilizacao in vitro", "ivf-behandeling", "tup bebek", "экстракорпоральн*", "体外受精", "试管婴儿", "시험관 시술", "fertility treatment", "infertil*", "unfruchtbar*",
    ],
    aboutPerson: [
      "depression", "depressionen", "depressiv*", "depressif", "depressive", "depresion", "depresivo", "depresiva", "depressione", "depresso", "depressa", "depressao", "deprimid*", "depressie", "depressief", "depresj*", "depresyon*", "depression", "депресс*",
      "krebs", "cancer", "cancro", "cancer", "kanker", "rak", "kanser", "рак", "asthma", "asthme", "asma", "astma", "astim", "астм*", "喘息", "哮喘", "천식", "bipolar*", "bipolaire", "bipolare", "biegunow*", "биполяр*", "alcoholic", "alcoholico", "alcoholica", "alcoolique", "лечусь", "通院", "治疗中", "치료 중",
      "allergi*", "allergie", "alergi*", "аллерги*", "アレルギー", "过敏", "알레르기", "schwanger*", "enceinte", "embarazad*", "incinta", "gravida", "zwanger", "w ciazy", "hamile", "gravid", "беремен*", "妊娠", "怀孕", "임신",
      "diagnostiziert", "diagnostique", "diagnosticad*", "diagnosticat*", "gediagnosticeerd", "zdiagnozowan*", "teshis", "диагноз*", "診断", "确诊", "진단",
      "kreft", "kraeft", "kræft", "syopa*", "raka", "rakiem", "in cura", "in terapia", "en tratamiento", "em tratamento", "in behandeling", "in behandlung", "en traitement", "w trakcie leczenia", "tedavi goruyorum",
      "therapeut*", "terapeut*", "psychotherapeut*", "psykoterapeut*", "psicoterapeut*", "психотерапевт*",
      // Hindustani (romanised): "sugar" and "BP" name diabetes and hypertension.
      "sugar hai", "sugar ki bimari", "bp hai", "bimari hai",
    ],
  },
  criminal_record: {
    anywhere: [
      "criminal record", "criminal records", "years in prison", "years in jail", "months in prison", "months in jail", "jahre im gefangnis", "jahre haft", "ans de prison", "mois de prison", "anos de carcel", "anos de prision", "anni di carcere", "anos de prisao", "anos de cadeia", "jaar cel", "jaar gevangenisstraf", "lat wiezienia", "yil hapis", "ar i fangelse", "лет тюрьмы", "лет колонии", "prior conviction", "previous conviction", "convicted", "felony", "felon", "on probation", "on parole", "served time", "jail time", "prison sentence", "suspended sentence", "sex offender", "sex offenders register",
      "vorstraf*", "vorbestraft", "bewahrungsstrafe", "auf bewahrung", "haftstrafe", "freiheitsstrafe", "im gefangnis", "im knast", "fuhrungszeugnis", "casier judiciaire", "condamne pour", "condamnee pour", "en prison", "sursis", "en conditionnelle", "antecedentes penales", "condenado por", "condenada por", "en la carcel", "en prision", "libertad condicional",
      "precedenti penali", "fedina penale", "condannato per", "condannata per", "in carcere", "liberta vigilata", "antecedentes criminais", "ficha criminal", "cadastro criminal", "condenado por", "na prisao", "na cadeia", "liberdade condicional", "strafblad", "veroordeeld voor", "in de gevangenis", "taakstraf", "voorwaardelijke straf",
      "karany", "karana", "w wiezieniu", "kartoteke", "niekaralnosc", "sabika*", "hapis yattim", "hapiste", "mahkum oldum", "straffregister", "belastningsregister", "domd for", "i fangelse", "straffattest", "судимост*", "осужден*", "осуждён*", "в тюрьме", "отсидел*", "условн* срок*",
      "坐过牢", "进过监狱", "蹲过监狱", "前科", "懲役", "刑務所", "服役", "執行猶予", "犯罪记录", "案底", "坐牢", "判刑", "缓刑", "전과", "징역", "교도소", "수감", "집행유예",
      "out of prison", "out of jail", "released from prison", "released from jail", "behind bars", "doing time", "serving time", "hinter gittern", "aus dem gefangnis", "derriere les barreaux", "sorti de prison",
      "tras las rejas", "sali de la carcel", "dietro le sbarre", "uscito di prigione", "atras das grades", "sai da prisao", "achter de tralies", "uit de gevangenis", "za kratkami", "z wiezienia", "parmaklik arkasinda", "за решеткой", "из тюрьмы",
      "fait de la prison", "fait de la taule", "stato in carcere", "stata in carcere", "estuve preso", "estuve presa", "fiquei preso", "fiquei presa", "me condenaron", "domdes", "domdes for", "sonet en dom", "sonet dommen", "har sonet", "sonar ett straff", "odsiedział*",
    ],
    aboutPerson: [
      "arrested", "charged with", "court date", "in prison", "in jail", "incarcerated", "sentenced", "conviction", "wyrok", "festgenommen", "verhaftet", "verurteilt", "gefangnis", "arrete", "arretee", "condamne", "condamnee", "prison", "detenido", "detenida", "arrestad*", "condenad*", "carcel", "prision", "arrestato", "arrestata", "condannat*", "carcere", "condenad*", "prisao", "cadeia",
      "dui", "dwi", "gearresteerd", "veroordeeld", "gevangenis", "aresztowan*", "skazan*", "wiezieni*", "tutuklandim", "gozaltina", "hapis", "domd", "fangelse", "арестован*", "задержан*", "тюрьм*", "逮捕", "拘留", "체포", "구속",
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
    aboutPerson: ["gay", "gayim", "gayiz", "schwul", "homo", "gej*", "гей*", "queer", "pansexu*", "asexu*"],
  },
  religion: {
    anywhere: [
      "muslimisch*", "musulman*", "musulman", "musulmana", "musulmano", "muculman*", "moslim*", "muzulman*", "musluman*", "мусульман*", "イスラム教", "穆斯林", "伊斯兰教", "무슬림", "이슬람교",
      "judisch*", "juif", "juive", "judio", "judia", "ebrea", "judeu", "judia", "joods", "zydowsk*", "yahudi*", "judisk", "еврей*", "иуде*", "ユダヤ教", "犹太教", "유대교",
      "jehova*", "jehovah", "geova", "jeova", "jehowy", "иегов*", "エホバ", "耶和华见证人", "여호와의 증인", "latter-day saints", "latter day saints", "letzten tage", "mormon*", "mormone", "mormón", "мормон*", "モルモン",
      "buddhist*", "bouddhiste", "budista", "buddista", "boeddhist*", "buddyst*", "budist", "буддист*", "仏教徒", "佛教徒", "불교 신자", "hinduist*", "hindou", "hindoue", "hindu", "induista", "hindoe", "hindoeist*", "индуист*", "ヒンドゥー教", "印度教", "힌두교",
      "sikh", "sikhs", "atheist*", "athee", "ateo", "atea", "ateu", "ateia", "atheist", "atheiste", "ateist*", "атеист*", "無神論", "无神论", "무신론", "agnostik*", "agnostique", "agnostico", "agnostica", "agnost*", "агностик*",
      "クリスチャン", "ムスリム", "musalmaan", "musalman", "katoliczk*", "muzulmank*", "zydowk*", "protestantk*", "prawoslawn*", "教徒", "信徒", "信者", "신자", "교인", "天主教", "基督教", "キリスト教", "기독교", "천주교", "espirita", "espiritismo", "spirite", "kardecista",
      // religious movements and congregations by name
      "創価学会", "soka gakkai", "幸福の科学", "天理教", "立正佼成会", "scientolog*", "opus dei", "ahmadiyya", "pingstkyrka*", "pingstforsamling*", "pinsekirke*", "pinsemenighet*", "pinksterkerk*", "pinkstergemeente*", "pfingstgemeinde*", "pfingstkirche*",
      // religious fasting, said in Hindustani
      "vrat rakhti", "vrat rakhta", "vrat rakhte", "vrat rakhna", "roza rakhti", "roza rakhta", "roze rakhte", "namaz padhti", "namaz padhta",
    ],
    aboutPerson: [
      "katholisch", "katholik*", "catholique", "catolico", "catolica", "cattolico", "cattolica", "katholiek", "katolik*", "katolsk", "католи*", "evangelisch", "evangelique", "evangelico", "evangelica", "ewangeli*", "evanjelik", "evangelisk", "евангели*",
      "protestant*", "protestante", "orthodoxe", "ortodoxo", "ortodoxa", "ortodosso", "ortodossa", "orthodoxe", "православн*", "christ", "christin", "chretien", "chretienne", "cristiano", "cristiana", "cristao", "crista", "christen", "chrzescijan*", "hristiyan*", "kristen", "христиан*",
      "gelovig", "praktizierend*", "religios", "religiose", "religioser", "religioso", "religiosa", "religieux", "religieuse", "religioso", "religiosa", "gläubig*", "glaubig*", "croyant", "croyante", "creyente", "credente", "crente", "wierzac*", "dindar", "troende", "верующ*",
      // religious festivals, kept or celebrated by someone
      "suikerfeest", "offerfeest", "zuckerfest", "opferfest", "ramadan", "ramazan", "ramadhan", "aid el-fitr", "aid el-kebir", "diwali", "navratri", "yom kippur", "rosch haschana", "rosh hashanah", "pessach", "pesach", "chanukka", "hanukkah", "shabbat", "sabbat",
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
      "kurden", "molukker*", "molukse", "moluks", "jenische", "jenischen", "yenish", "tatar*", "татар*", "pomak*", "aromun*", "sorb*", "sorbe", "lusacien*", "cajun", "creole",
    ],
    afterCopula: ["mapuche", "quechua", "aymara", "guarani", "maya", "inuk", "inuit", "sinto", "rom", "roma", "romem", "romka", "romowie", "jenisch", "jenischer", "traveller", "gitano", "gitana"],
    // Origin words also describe products and data ("pays d'origine", "Herkunft der Daten").
    aboutPerson: ["d'origine", "de origen", "di origine", "de origem", "afkomst", "herkunft", "abstammung", "pochodzenia", "kokenli", "asilli", "происхождени*", "roma"],
  },
  trade_union: {
    anywhere: [
      "gewerkschaft*", "gewerkschaftlich*", "gewerkschafter*", "syndicat", "syndicats", "syndique", "syndiquee", "syndicaliste", "sindicato", "sindicatos", "sindicalista", "sindicad*", "sindacato", "sindacati", "sindacalista", "sindacalizzat*", "sindicalizad*",
      "strike ballot", "balloting for strike", "ballot for strike action", "urabstimmung", "streikabstimmung", "vakbond*", "vakbondslid", "zwiazek zawodowy", "zwiazku zawodowego", "zwiazku zawodowym", "zwiazkach zawodowych", "zwiazkowiec", "zwiazkowczyni", "zwiazkow*", "sendika*", "fackforbund*", "facket", "fackligt", "fagforening*", "ammattiliit*", "профсоюз*", "労働組合", "組合員", "労組", "工会", "노동조합", "노조",
    ],
    aboutPerson: [],
  },
  genetic: {
    anywhere: [
      "gentest*", "gen-test", "genetischer test", "dna-test", "test genetique", "test adn", "test genetico", "prueba genetica", "teste genetico", "genetische test", "dna-test", "test genetyczny", "badanie genetyczne", "genetik test", "gentestet",
      "генетическ* тест*", "днк-тест*", "遺伝子検査", "基因检测", "유전자 검사", "haplogroup*", "haplogrup*", "haplogruppe*", "haplogroep*", "гаплогрупп*", "anlagetrager*", "porteur sain", "porteuse saine", "portador sano", "portadora sana", "portatore sano", "portatrice sana", "drager van",
      "mukoviszidose", "mucoviscidose", "fibrosis quistica", "fibrosi cistica", "fibrose cistica", "taaislijmziekte", "mukowiscydoz*", "kistik fibroz", "муковисцидоз*", "cystic fibrosis",
      "chorea huntington", "maladie de huntington", "gene de huntington", "enfermedad de huntington", "gen de huntington", "malattia di huntington", "doenca de huntington", "ziekte van huntington", "choroba huntingtona", "huntington hastaligi", "болезн* гентингтона",
      "brca1", "brca2", "brca-mutation", "mutation brca", "mutacion brca", "mutazione brca",
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
  "sono nel", "sono nella", "soy del", "soy de la", "zit bij", "jestem w", "vote", "aktiv", "aktiva", "aktive", "engagiert", "engagee", "activo", "activa", "attivo", "attiva", "ativo", "ativa", "actief", "aktywny", "aktywna", "aktif", "stemte", "stemmer", "stemt", "voto", "votado", "votare", "votaré", "votei", "votarei", "votamos", "afiliado", "afiliada", "miembro", "militante", "apoyo", "votato", "iscritto", "iscritta", "membro", "sostengo", "filiado", "filiada", "apoio",
  "stem", "stemde", "gestemd", "lid", "steun", "glosuje", "glosowal*", "czlonek", "czlonkiem", "czlonkini*", "popieram", "oy", "uyesi*", "destekliyorum", "rostar", "rostade", "medlem", "stodjer", "голосую", "голосовал*", "член", "поддерживаю",
  "投票", "支持", "入党", "지지", "투표", "가입",
];

/** Words for a political party. */
export const PARTY_WORDS: readonly string[] = ["*partei", "parti", "partido", "partito", "*partij", "partia", "partii", "partisi", "*partiet", "*partiets", "*puolue", "партия", "партии", "党", "黨", "정당"];

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
  "mitglied", "membre", "adherent*", "naleze", "nalezymy", "nalezy", "gehore", "appartiens", "pertenezco", "appartengo", "pertenco", "behoor", "tillhor", "tilhorer", "miembro", "afiliado", "afiliada", "membro", "iscritto", "iscritta", "socio", "socia", "filiado", "filiada", "lid", "czlonek", "czlonkini*", "uye*", "medlem", "член", "加入", "가입",
];
export const UNION_NAMES: readonly string[] = [
  "cgil", "cisl", "uil", "dgb", "verdi", "gew", "ig bce", "ig metall", "ngg", "evg", "ogb", "fnv", "cnv", "tco", "saco", "cgt", "cfdt", "cftc", "unsa", "ccoo", "ugt", "cgtp", "opzz",
  "solidarnos*", "turk-is", "hak-is", "kesk", "連合", "민주노총", "한국노총",
];

/** A personal subject or possessive: what makes an ambiguous special-category word about someone. */
export const PERSON_WORDS: readonly string[] = [
  "i", "i'm", "im", "i've", "me", "my", "mine", "myself", "user", "user's", "users", "he", "she", "they", "his", "her", "their", "we", "our",
  "ich", "mich", "mir", "mein", "meine", "meinen", "meinem", "meiner", "bin", "sie", "nutzer", "benutzer", "nutzerin",
  "je", "j'ai", "j'etais", "moi", "mon", "ma", "mes", "suis", "elle", "utilisateur", "utilisatrice",
  "yo", "soy", "estoy", "tengo", "mi", "mis", "ella", "usuario", "usuaria", "me", "fui",
  "io", "sono", "ho", "mio", "mia", "miei", "mie", "lui", "lei", "utente",
  "eu", "sou", "estou", "tenho", "meu", "minha", "fui", "ele", "ela", "usuário",
  "ik", "ben", "heb", "mijn", "hij", "zij", "gebruiker", "wij", "wir", "nous", "nosotros", "noi", "nos", "vi", "biz", "мы",
  "mujhe", "mujhko", "mera", "meri", "hum", "humein", "hamara",
  "jestem", "mam", "choruje", "cierpie", "biore", "lecze", "leide", "souffre", "sufro", "soffro", "sofro", "lijd", "lider", "страдаю", "moj", "moja", "moje", "byłem", "bylem", "bylam", "ona", "uzytkownik",
  "ben", "benim", "bana", "kullanici", "jag", "mitt", "mina", "anvandaren", "jeg", "er", "mig",
  "я", "меня", "мне", "мой", "моя", "мои", "он", "она", "пользователь",
  "私", "僕", "俺", "わたし", "ユーザー", "我", "我的", "用户", "用戶", "저", "제", "나", "내", "저는", "나는", "사용자",
];

/**
 * Copulas ("to be", present and past) of the languages above: what must stand right before an
 * `afterCopula` noun.
 */
export const COPULA_WORDS: readonly string[] = [
  "am", "is", "are", "was", "were", "i'm", "im", "he's", "she's", "bin", "bist", "ist", "sind", "seid", "war", "waren", "suis", "es", "est", "sommes", "etes", "sont", "etais", "etait",
  "soy", "eres", "somos", "son", "era", "sono", "sei", "siamo", "sou", "somos", "sao", "ben", "zijn", "jestem", "jest", "jestesmy", "ar", "er", "var", "je", "jsem", "sunt", "vagyok",
];

/**
 * Crimes by name (Wiktionary's translations of the offences most often in criminal records:
 * burglary, theft, robbery, assault, fraud, drunk driving, drug offences, manslaughter), and the
 * acts of being convicted or serving a sentence for one. An offence with such an act in its clause
 * is a criminal record ("doing five years for burglary", "skazany za kradzież").
 */
export const OFFENCE_WORDS: readonly string[] = [
  "burglary", "theft", "robbery", "assault", "fraud", "drunk driving", "drink driving", "drug dealing", "drug possession", "possession", "manslaughter", "murder", "shoplifting", "arson", "dui", "dwi",
  "einbruch*", "diebstahl*", "raub*", "korperverletzung", "betrug*", "trunkenheit am steuer", "drogenbesitz", "totschlag", "mord",
  "cambriolage", "vol", "vols", "agression", "escroquerie", "conduite en etat d'ivresse", "homicide", "trafic de drogue",
  "robo", "hurto", "agresion", "estafa", "conducir borracho", "conducir ebrio", "trafico de drogas", "homicidio",
  "furto", "rapina", "truffa", "aggressione", "guida in stato di ebbrezza", "spaccio", "omicidio",
  "roubo", "agressao", "fraude", "trafico", "inbraak", "diefstal", "mishandeling", "oplichting", "doodslag",
  "kradziez*", "włamani*", "rozboj*", "pobicie", "oszustw*", "jazde po pijanemu", "hirsizlik*", "dolandiricilik*", "gasp*",
  "stold", "inbrott", "misshandel", "bedrageri", "rattfylleri", "narkotikabrott", "tyveri", "innbrudd", "vold", "narkotika", "promillekjoring", "ran",
  "краж*", "грабеж*", "разбой*", "мошенничеств*", "窃盗", "盗窃", "절도", "폭행", "사기",
];
export const SENTENCE_ACTS: readonly string[] = [
  "doing", "serving", "served", "jailed", "sentenced", "convicted", "sitting", "siedziałem", "siedziałam", "siedział", "siedziała", "odsiedziałem", "odsiedziałam", "skazany", "skazana", "skazali", "condenaron", "condenado", "condenada",
  "condamne", "condamnee", "condannato", "condannata", "verurteilt", "sass", "gesessen", "domd", "domdes", "sonet", "soner", "sonte", "satt", "veroordeeld", "zat", "hukum", "осужден*", "сидел*",
];

/**
 * Partner words by gender, with possessives (Wiktionary's "husband", "boyfriend", "wife",
 * "girlfriend"): with a speaker of the same gender they say a same-sex relationship.
 */
export const MALE_PARTNER = String.raw`(?:(?:my|mein(?:em|en)?|mon|mi|il mio|meu|o meu|mijn|m[oó]j|min|мой)\s+(?:husband|boyfriend|mann|ehemann|freund|mari|copain|petit ami|novio|marido|esposo|fidanzato|marito|ragazzo|namorado|vriend|man|echtgenoot|chłopak|chlopak|mąż|maz|pojkvän|pojkvan|муж|парень)|彼氏|旦那|夫|男朋友|老公|남편|남자친구)`;
export const FEMALE_PARTNER = String.raw`(?:(?:my|meine?r?|ma|mi|la mia|minha|a minha|mijn|moja|min|моя)\s+(?:wife|girlfriend|frau|ehefrau|freundin|femme|copine|novia|esposa|mujer|fidanzata|moglie|ragazza|namorada|vriendin|vrouw|echtgenote|dziewczyna|żona|zona|flickvän|flickvan|fru|kone|жена|девушка)|嫁|妻|女朋友|老婆|아내|여자친구)`;
/** A speaker saying their gender: "(m, 34)", "soy chico", "je suis une femme", Japanese 僕/俺. */
export const MALE_SPEAKER = String.raw`(?:\(\s*(?:m|male|männlich)\s*[,/]\s*\d{2}\s*\)|\(\s*\d{2}\s*[,/]?\s*m\s*\)|\b(?:soy|je suis|ich bin|sono|sou|ik ben|jestem|i'm|i am|jag är|jeg er)\s+(?:un |una |ein |een |a |um |o )?(?:chico|hombre|homme|garçon|garcon|mec|mann|junge|typ|ragazzo|uomo|homem|rapaz|man|jongen|mężczyzną|facetem|guy|kille|fyr)\b|僕|俺)`;
export const FEMALE_SPEAKER = String.raw`(?:\(\s*(?:f|w|female|weiblich)\s*[,/]\s*\d{2}\s*\)|\(\s*\d{2}\s*[,/]?\s*[fw]\s*\)|\b(?:soy|je suis|ich bin|sono|sou|ik ben|jestem|i'm|i am|jag är|jeg er)\s+(?:una |une |eine |een |a |uma |um )?(?:chica|mujer|femme|fille|frau|mädchen|ragazza|donna|mulher|menina|vrouw|meisje|kobietą|dziewczyną|woman|girl|tjej|kvinna|jente|kvinne)\b|あたし)`;

/**
 * Worship attended: a going, attending or membership verb (first person or plural) and a place or
 * service of worship in one clause ("ich gehe jeden Sonntag in die Kirche", "vamos a misa",
 * "chodzę do kościoła", "jag är medlem i Pingstkyrkan"). Source: Wiktionary's translations of
 * "church", "mass" (service), "mosque", "synagogue", "temple" (Hindu, Sikh), "congregation".
 * German "Messe" is also a trade fair: only "Gottesdienst" there.
 */
export const WORSHIP_ACTS: readonly string[] = [
  "gehe", "gehen", "besuche", "besuchen", "vais", "allons", "vas", "voy", "vamos", "asisto", "vado", "andiamo", "frequento", "vou", "frequento", "ga", "gaan", "bezoek", "chodze", "chodzimy", "gidiyorum", "gideriz",
  "gar", "går", "gaar", "går", "хожу", "ходим", "mitglied", "membre", "miembro", "membro", "lid", "medlem", "czlonkiem", "uyesiyim", "член",
];
export const WORSHIP_PLACES: readonly string[] = [
  "kirche", "gottesdienst", "moschee", "synagoge", "freitagsgebet", "eglise", "mosquee", "synagogue", "iglesia", "misa", "mezquita", "sinagoga", "chiesa", "messa", "moschea", "igreja", "missa", "mesquita",
  "kerk", "moskee", "synagoge", "koscio*", "msza", "msze", "meczet*", "synagog*", "camiye", "cami", "kyrkan", "kyrka*", "*kyrkan", "massan", "moskén", "mosken", "kirken", "*kirken", "moskeen", "церковь", "церкви", "мечеть", "мечеть", "синагог*",
  "gurdwara", "mandir",
];
