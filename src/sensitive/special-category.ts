import { regexDetector, type Detector } from "./categories.js";

/**
 * GDPR art. 9 special categories, recognised by wording. The patterns work on the user's own words
 * ("I'm diabetic") and on normalised candidates ("User has diabetes."). Ambiguous words only count
 * in context ("therapy" after "in"/"my", "blind" after "I'm"), so "retail therapy", "double-blind"
 * and "the European Union" stay storable. Keyword matching cannot understand meaning: see
 * docs/extraction.md for what it misses.
 */

/** Who the statement is about: the user in first or third person, or anyone ("my brother is …"). */
const WHO = "\\b(?:I'm|I am|I've|I have|I've been|I was|user|the user|they|they're|they are|he|she|he's|she's|is|are|was|been|being|as)";
/** Only people: for words that also describe things ("the button is disabled", "the estimate is conservative"). */
const PERSON = "\\b(?:I'm|I am|I've been|(?:the )?user(?: is| was|'s)?|they're|they are|he's|he is|she's|she is)";

const HEALTH_TERMS = [
  "diabet(?:es|ic)",
  "cancer",
  "chemo(?:therapy)?",
  "leuk(?:a)?emia",
  "lymphoma",
  "tumou?r",
  "hepatitis",
  "asthma(?:tic)?",
  "epilep(?:sy|tic)",
  "schizophreni[a-z]*",
  // Not the transistor, the electrode or the stepper motor.
  "bipolar(?![- ](?:junction|transistors?|electrodes?|stepper|plates?|coordinates?|outflows?|cells?))(?: disorder)?",
  "autis(?:m|tic)",
  "anorexi[a-z]*",
  "bulimi[a-z]*",
  "dementia",
  "alzheimer'?s",
  "parkinson'?s",
  "multiple sclerosis",
  "crohn'?s",
  "c(?:o)?eliac(?: disease)?",
  "lupus",
  "arthritis",
  "fibromyalgia",
  "endometriosis",
  "migraines?",
  "insulin",
  "antidepressants?",
  "sertraline",
  "prozac",
  "fluoxetine",
  "zoloft",
  "xanax",
  "methadone",
  "adderall",
  "ritalin",
  "metformin",
  "dialysis",
  "pregnan(?:t|cy)",
  "miscarriage",
  "hypertension",
  "high blood pressure",
  "heart (?:condition|disease|attack|failure|surgery)",
  "panic attacks?",
  "eating disorder",
  "mental illness",
  "mental health (?:issues?|problems?|conditions?|crisis|struggles?|days?)",
  "(?<!great )depression",
  "clinically depressed",
  "anxiety disorder",
  "allerg(?:y|ies|ic)",
  "lactose[- ]intoleran(?:t|ce)",
  "gluten[- ]intoleran(?:t|ce)",
  "disability",
  "wheelchair",
  "hearing aids?",
  "psychiatrist",
  "antipsychotics?",
  "prescri(?:bed|ption (?:for|of))",
  "medication",
  "blood type",
  "chlamydia",
  "herpes",
  "syphilis",
  "gonorrh(?:o)?ea",
  "thyroid",
  "sobriety",
  "alcoholi(?:c|sm)",
  "rehab",
  "long covid",
];

/** Ambiguous words that only count after a statement about a person ("I'm blind", "user had a stroke"). */
const HEALTH_IN_CONTEXT = [
  `${PERSON}\\s+(?:legally\\s+|partially\\s+|colou?r[- ]?|completely\\s+)?(?:blind|deaf|hard of hearing)\\b(?![- ](?:spot|test|review|study|trial|copy))`,
  `${PERSON}\\s+(?:physically\\s+|mentally\\s+)?disabled\\b`,
  `${PERSON}\\s+(?:(?:been|in)\\s+)?(?:sober|in recovery)\\b`,
  `\\b(?:had|have|has|suffered|survived)\\s+(?:a\\s+)?(?:stroke(?! of\\b)|seizures?|heart attack|concussion|covid|anxiety|depression|OCD|surgery|an? operation)\\b`,
  `\\b(?:diagnosed|treated|hospitali[sz]ed|medicated)\\s+(?:with|for)\\b`,
  `\\b(?:suffers?|suffering)\\s+from\\b`,
  `\\b(?:my|their|his|her|user's|the user's)\\s+(?:mental health|therapist|doctor|GP|oncologist|cardiologist|psychologist|diagnosis|meds|condition|illness|symptoms)\\b`,
  `\\b(?:in|started|starting|go(?:es|ing)? to|attend(?:s|ing)?)\\s+(?:couples\\s+)?therapy\\b`,
  `\\bintoleran(?:t|ce) to\\b`,
  `\\b(?:takes?|taking|on)\\s+(?:blood thinners|birth control|the pill|hormones|HRT|antibiotics|painkillers|opioids|statins|beta blockers)\\b`,
];

const RELIGIONS =
  "Muslim|Catholic|Jewish|Jew|Hindu|Buddhist|Sikh|Jain|Mormon|Protestant|Evangelical|Baptist|Methodist|Lutheran|Anglican|Presbyterian|Pentecostal|Quaker|Amish|Jehovah'?s Witness|Orthodox (?:Christian|Jew)|atheist|agnostic|pagan|Wiccan|Zoroastrian|Shia|Sunni|Baha'?i|Rastafarian|Scientologist|Christian(?= faith| believer)";

const RELIGION = [
  `${WHO}\\s+(?:an?\\s+)?(?:practi[cs]ing\\s+|devout\\s+|observant\\s+|lapsed\\s+|non-practi[cs]ing\\s+|born-again\\s+|converted\\s+|proud\\s+)?(?:${RELIGIONS})\\b`,
  `\\bconvert(?:ed|ing)? to (?:Islam|Judaism|Christianity|Catholicism|Buddhism|Hinduism)\\b`,
  `\\b(?:my|their|his|her|user's|the user's)\\s+(?:faith|religion|religious (?:beliefs?|views|practice)|church|mosque|synagogue|temple|imam|rabbi|priest|pastor)\\b`,
  `\\b(?:go(?:es)?|goes|going|went)\\s+to\\s+(?:the\\s+)?(?:church|mass|mosque|synagogue|temple|gurdwara|Friday prayers)\\b`,
  `\\b(?:attends?|attending)\\s+(?:church|mass|mosque|synagogue|temple|gurdwara|services)\\b`,
  `\\b(?:fast(?:s|ing)?|observes?|observing|celebrates?|keeps?|keeping)\\s+(?:for\\s+|during\\s+)?(?:Ramadan|Shabbat|the Sabbath|Lent|Yom Kippur|Passover|Diwali|Eid)\\b`,
  `\\b(?:halal|kosher)\\b`,
  `\\bpray(?:s|ing)?\\s+(?:five times|daily|every (?:day|morning|night|evening))\\b`,
  `\\bprayer times\\b`,
  `\\b(?:a|my|the user's)\\s+(?:believer|non-believer)\\b`,
];

const ORIENTATIONS = "gay|lesbian|bisexual|bi(?![-/])|queer|homosexual|asexual|pansexual|demisexual|transgender|trans(?![-/])|non-?binary|genderqueer|genderfluid|intersex";
/** A partner, and what two partners both being makes a same-sex couple. */
const PARTNER = "(?:husband|boyfriend|wife|girlfriend|partner|spouse|fianc[ée]e?)";
const SAME_SEX = "(?:men|women|guys|girls|male|female|gay|lesbians?)\\b";
const SEXUAL_ORIENTATION = [
  `${WHO}\\s+(?:an?\\s+)?(?:openly\\s+|proudly\\s+)?(?:${ORIENTATIONS})\\b`,
  `\\b(?:identif(?:y|ies|ied) as|came out(?: as)?|coming out(?: as)?|out as)\\s+(?:an?\\s+)?(?:${ORIENTATIONS})\\b`,
  `\\b(?:came|coming) out to\\b`,
  `\\bsexual (?:orientation|preferences?|identity|partners?)\\b`,
  `\\bsex life\\b`,
  `\\b(?:my|their|his|her|user's) (?:gender (?:transition|identity)|transition)\\b`,
  `\\b(?:member of|part of) the LGBTQ(?:IA)?\\+? community\\b`,
  // Said through the partner: "my husband and I are both men", "we're a lesbian couple".
  `\\b(?:my|our|their|his|her|(?:the )?user[’']s)\\s+${PARTNER}\\s+and\\s+(?:I|they|he|she|we|(?:the )?user)\\s+are\\s+both\\s+${SAME_SEX}`,
  `\\b(?:I|they|he|she|we|(?:the )?user)\\s+and\\s+(?:my|our|their|his|her)\\s+${PARTNER}\\s+are\\s+both\\s+${SAME_SEX}`,
  `\\b(?:we(?:'re|’re| are)|as)\\s+(?:an?\\s+)?(?:gay|lesbian|queer|same[- ]sex)\\s+couple\\b`,
  `\\bsame[- ]sex\\s+(?:couple|partner|spouse|marriage|relationship|wedding|parents)\\b`,
];

const PARTIES =
  "Labour|Conservatives?|Tor(?:y|ies)|Lib ?Dems?|Liberal Democrats|Greens?|Green Party|Reform(?: UK)?|SNP|Plaid Cymru|Democrats?|Republicans?|GOP|AfD|SPD|CDU|CSU|FDP|Grünen|die Linke|Linke|BSW|Rassemblement National|Front National|La France Insoumise|Renaissance|PSOE|Partido Popular|Podemos|Vox|Fidesz|PiS|Lega|Fratelli d'Italia|Liberals|NDP|Bloc Québécois|[A-Z][a-z]+ Party";
const POLITICAL = [
  `\\b(?:I|I've|user|the user|they|he|she)\\s+(?:always\\s+|usually\\s+|just\\s+|never\\s+)?(?:vote[sd]?|voting)\\s+(?:for\\s+|against\\s+)?(?:the\\s+)?(?:${PARTIES}|Brexit|Leave|Remain|Trump|Biden|Harris|Obama|Macron|Le Pen)\\b`,
  `${WHO}\\s+(?:an?\\s+)?(?:lifelong\\s+|staunch\\s+|registered\\s+|proud\\s+|committed\\s+)?(?:Democrat|Republican|Tory|socialist|communist|Marxist|anarchist|libertarian|fascist|monarchist|republican voter|MAGA supporter|Trump supporter)\\b`,
  `${PERSON}\\s+(?:an?\\s+|very\\s+|quite\\s+|fairly\\s+|politically\\s+)?(?:conservative|liberal|progressive|leftist|left-wing|right-wing|centrist|nationalist|feminist|environmentalist|Zionist|anti-Zionist)\\b(?=\\s*(?:[.,;!]|$|and\\b|voter|politically|at heart|myself|by conviction))`,
  `\\b(?:member|supporter|activist|volunteer|canvasser)\\s+(?:of|for)\\s+the\\s+(?:${PARTIES}|[A-Z][\\w'-]*(?:\\s+[A-Z][\\w'-]*){0,3}\\s+[Pp]arty)\\b`,
  `\\b(?:my|their|his|her|user's|the user's)\\s+political\\s+(?:views?|opinions?|beliefs?|affiliation|leanings?|party)\\b`,
  `\\b(?:I|user|the user|they)\\s+(?:strongly\\s+)?(?:support|supports|oppose|opposes)\\s+(?:Brexit|Trump|Biden|Harris|Labour|the Tories|the Republicans|the Democrats|the AfD|abortion rights|gun control|Palestine|Israel|independence for \\w+)\\b`,
  `\\bpolitically\\s+(?:left|right|conservative|liberal|progressive|active)\\b`,
];

/**
 * Supporting, backing, funding or campaigning for a party named by its (capitalised) name:
 * "I support the Social Democrats", "we donate to the Green Party", "she campaigned for the
 * Christian Democrats". Case-sensitive on the name, so "supports the greens on the course" stays.
 */
const POLITICAL_SUPPORT =
  "\\b(?:I|[Uu]ser|[Tt]he user|[Tt]hey|[Hh]e|[Ss]he|[Ww]e)\\s+(?:(?:[Ss]trongly|[Rr]eally|[Aa]lways|[Aa]ctively|[Pp]roudly|[Ss]till|[Oo]penly)\\s+)?" +
  "(?:[Ss]upport(?:s|ed)?|[Bb]ack(?:s|ed)?|[Oo]ppose(?:s|d)?|[Dd]onate(?:s|d)?\\s+to|[Cc]ampaign(?:s|ed)?\\s+for|[Vv]olunteer(?:s|ed)?\\s+for|[Cc]anvass(?:es|ed)?\\s+for|[Vv]ote(?:s|d)?\\s+for)" +
  "\\s+(?:the\\s+)?(?:[A-Z][\\w'’-]+\\s+){0,2}(?:Democrats|Republicans|Socialists|Liberals|Conservatives|Greens|Libertarians|Communists|Labour|Tories|Party)\\b(?!\\s+[A-Z])";

const ETHNICITIES =
  "Black|White|Hispanic|Latin[oax]|Latine|Asian|Asian[- ]American|African[- ]American|Arab|Roma|Romani|Sinti|Indigenous|Aboriginal|First Nations|Native American|Pacific Islander|biracial|multiracial|mixed[- ]race|Caucasian|Kurdish|Uyghur|Tamil|Berber|Amazigh|Māori|Maori|Inuit|Sámi|Sami|Romany|Traveller";
const ETHNICITY = [
  `(?:\\bI'm|\\bI am|\\b(?:the )?user is|\\bthey are|\\bidentif(?:y|ies) as)\\s+(?:an?\\s+)?(?:${ETHNICITIES})\\b(?![- ](?:belt|box|theme|hat|paper|list|listed|listing|space|mode|screen|noise|board))`,
  `\\b(?:my|their|his|her|user's|the user's)\\s+(?:ethnicity|ethnic (?:background|origin|group|identity)|racial (?:background|identity)|race\\/ethnicity)\\b`,
  `\\bof\\s+(?:[A-Z][a-z]+(?:[- ][A-Z][a-z]+)?)\\s+(?:descent|ethnicity|ethnic origin|ancestry)\\b`,
  `\\b(?:ethnically|racially)\\s+[A-Za-z]+`,
  // "as a Black woman …", "being an Asian student here …".
  `\\b(?:as|being)\\s+an?\\s+(?:${ETHNICITIES})\\s+(?:wom[ae]n|m[ae]n|person|mother|mom|mum|father|dad|parent|girl|boy|guy|lady|student|immigrant|family|kid|child|teenager|professional)\\b`,
];

/** Mixed heritage by (capitalised) origin: "I'm half Korean, half Mexican", "she is part Cherokee". Case-sensitive. */
const MIXED_HERITAGE = [
  "(?:\\bI'm|\\bI’m|\\bI am|\\b[Uu]ser is|\\b[Tt]hey(?:'re| are)|\\b[Hh]e(?:'s| is)|\\b[Ss]he(?:'s| is))\\s+(?:half|part|a quarter|one[- ]quarter)[- ][A-Z][a-z]+",
  "\\bhalf[- ][A-Z][a-z]+,?\\s+(?:and\\s+)?half[- ][A-Z][a-z]+",
];

const UNIONS = "Teamsters|UNISON|Unite|GMB|UAW|SEIU|AFL-CIO|IG Metall|ver\\.di|Verdi|NEA|AFT|CGT|CFDT|FO|CCOO|UGT|FNV|Unia|NUT|NEU|RMT|PCS|CWU|USW|IBEW";
const TRADE_UNION = [
  `\\b(?:member of|members of|joined|belong(?:s)? to|rep(?:resentative)? (?:for|of|at)|steward (?:for|of|at)|organi[sz]er (?:for|with))\\s+(?:the\\s+|a\\s+|my\\s+|our\\s+)?(?:(?!European\\b|Soviet\\b|credit\\b|student\\b|students'\\b)[\\w.&'-]+\\s+){0,3}?(?:trade\\s+|labou?r\\s+|teachers'?\\s+|nurses'?\\s+|workers'?\\s+)?union\\b`,
  `\\b(?:member of|members of|joined|belong(?:s)? to|rep (?:for|of))\\s+(?:the\\s+)?(?:${UNIONS})\\b`,
  `\\b(?:trade[- ]union|labou?r union|union (?:member(?:ship)?|dues|rep(?:resentative)?|steward|card|organi[sz]er))\\b`,
  `\\bshop steward\\b`,
  `\\b(?:Teamster|IG Metall|ver\\.di|AFL-CIO)\\b`,
  `\\bunioni[sz]ed\\b`,
];

const BIOMETRIC = [
  `\\b(?:my|their|his|her|user's|the user's)\\s+(?:fingerprints?|thumbprints?|finger ?print (?:data|scan|template)|face ?print|facial (?:geometry|scan|template|recognition data)|face (?:scan|template|geometry)|iris (?:scan|pattern|template)|retina(?:l)? scans?|voice ?prints?|palm ?prints?|vein pattern|gait (?:data|signature)|biometrics|biometric (?:data|template|id|identifier))\\b`,
  `(?<!\\b(?:key|host|certificate|cert|SSL|TLS|GPG|PGP|SSH|browser|device|canvas|JA3|server|commit|public)\\s)\\b(?:fingerprint|thumbprint|face|iris|retina|palm)\\s+(?:template|scan)s?\\b`,
  `\\b(?:voiceprint|faceprint)s?\\b`,
  `\\bbiometric (?:data|templates?|identifiers?|samples?)\\b`,
];

const GENETIC = [
  `\\b(?:DNA|genetic|genome|genomic|23andMe|AncestryDNA)\\s+(?:test|testing|tests|results?|report|data|markers?|profile|sequence|sequencing|variants?|mutations?|predisposition|conditions?|disorders?|screening)\\b`,
  `\\b(?:BRCA[12]?|APOE ?(?:e?4)|Lynch syndrome|Huntington'?s|cystic fibrosis|sickle[- ]cell|Tay-Sachs|hemophilia|haemophilia|MTHFR)\\b`,
  `\\b(?:a\\s+)?carrier (?:of|for) (?:the )?(?:gene|BRCA|mutation|cystic fibrosis|sickle)`,
  `\\b(?:my|their|user's)\\s+(?:genes|genetics|genome)\\b`,
];

const rx = (parts: string[], flags = "gi") => parts.map((p) => new RegExp(p, flags));

export const SPECIAL_CATEGORY_DETECTORS: Detector[] = [
  regexDetector("health_condition", "health", [new RegExp(`\\b(?:${HEALTH_TERMS.join("|")})\\b`, "gi"), /\b(?:AIDS|HIV(?:[- ]positive)?|ADHD|PTSD|SSRIs?|IVF|STIs?|STDs?)\b/g]),
  regexDetector("health_context", "health", rx(HEALTH_IN_CONTEXT)),
  regexDetector("genetic_data", "genetic", rx(GENETIC)),
  regexDetector("biometric_data", "biometric", rx(BIOMETRIC)),
  regexDetector("religion", "religion", [...rx(RELIGION), /\b(?:[Aa]n?|[Dd]evout|[Pp]racti[cs]ing)\s+Christians?\b(?!\s+[A-Z])/g]),
  regexDetector("sexual_orientation", "sexual_orientation", rx(SEXUAL_ORIENTATION)),
  regexDetector("political_opinion", "political_opinion", rx(POLITICAL)),
  regexDetector("political_support", "political_opinion", new RegExp(POLITICAL_SUPPORT, "g")),
  regexDetector("ethnicity", "ethnicity", rx(ETHNICITY)),
  regexDetector("mixed_heritage", "ethnicity", rx(MIXED_HERITAGE, "g")),
  regexDetector("trade_union", "trade_union", [...rx(TRADE_UNION.slice(0, 4)), ...rx(TRADE_UNION.slice(4), "g")]),
];
