/**
 * The words people use for credentials, by concept, in the 30 most used written languages.
 *
 * Source: the translation tables of the English Wiktionary entries "password", "passcode",
 * "personal identification number", "login", "username", "credentials", "secret" (sense: secret
 * key), "key" (cryptography), "private key", "combination" (of a lock), "mnemonic", "seed phrase",
 * "door code" and "keypad", read per language, plus the compounds those languages form with them
 * (German "WLAN-Passwort", Dutch "wifi-wachtwoord"). Not written from any test corpus. Languages:
 * en de fr es it pt nl sv da no fi pl cs sk hu ro hr/sr sl bg ru uk el tr he ar fa ur hi bn ta th vi
 * id/ms tl sw ja zh ko.
 *
 * Entry syntax (matched on folded text: lower case, no diacritics — see text-tokens.ts):
 * - `word` or `two words`: whole tokens (compound parts count: "wlan-passwort" has "passwort");
 * - `stem*`: a token starting with it (inflection: Polish "hasła", Turkish "şifrem");
 * - `*tail`: a token ending with it (compounds: German "bankpasswort");
 * - CJK, kana and hangul entries match anywhere inside a CJK run (no spaces between words there).
 */

/** A concept of credential cue words. */
export type CredentialConcept =
  | "password"
  | "pin"
  | "code"
  | "accessObject"
  | "lock"
  | "combination"
  | "credentials"
  | "login"
  | "secret"
  | "key"
  | "keyQualifier"
  | "api"
  | "seed"
  | "token"
  | "recoveryCode"
  | "securityQuestion"
  | "cardCheck";

export const CREDENTIAL_WORDS: Readonly<Record<CredentialConcept, readonly string[]>> = {
  /** A password (also "passphrase", "passcode"). */
  password: [
    // en
    "password", "passwords", "passwd", "passphrase", "passcode", "pwd", "pw", "pass", "pword", "passw", "pswd",
    // de
    "*passwort", "*passworter", "*kennwort", "*kennworter", "losungswort", "*zugangscode",
    // fr
    "mot de passe", "mots de passe", "mdp", "motdepasse", "code secret",
    // es
    "contrasena", "contrasenas", "clave", "clave de acceso", "clave secreta",
    // it
    "parola d'ordine", "parola chiave d'accesso", "parola segreta",
    // pt
    "senha", "senhas", "palavra-passe", "palavra passe", "palavras-passe",
    // nl
    "*wachtwoord", "*wachtwoorden", "paswoord",
    // sv da no fi
    "*losenord", "*adgangskode", "*kodeord", "*passord", "*salasana*",
    // pl cs sk hu ro hr sr sl
    "hasl*", "hasel", "hesl*", "jelszo*", "jelszav*", "parola", "parolei", "lozink*", "sifr*", "gesl*",
    // bg ru uk
    "парол*",
    // el
    "κωδικ*", "συνθηματικ*",
    // tr
    "sifre*", "parola*",
    // he ar fa ur
    "סיסמ*", "הסיסמ*", "كلمة المرور", "كلمة السر", "رمز المرور", "رمز عبور", "گذرواژه", "کلمه عبور", "پاس ورڈ",
    // hi bn ta mr te
    "पासवर्ड", "कूटशब्द", "পাসওয়ার্ড", "கடவுச்சொல்", "పాస్‌వర్డ్",
    // th vi id ms tl sw
    "รหัสผ่าน", "mat khau", "kata sandi", "sandi", "kata laluan", "nenosiri",
    // ja zh ko
    "パスワード", "合言葉", "密码", "密碼", "口令", "비밀번호", "비번", "패스워드", "암호",
  ],
  /** A personal identification number. */
  pin: [
    "pin", "pins", "pincode", "pin-code", "pin code", "*pincode", "pin number", "pin-nummer", "*geheimzahl", "geheimnummer",
    "code pin", "code confidentiel", "codigo pin", "codigo secreto", "numero pin", "codice pin", "pin-kod*", "pin-koden", "kod pin", "pin kodu", "pin kod*",
    "пин", "пин-код*", "пин код*", "ПИН",
    "暗証番号", "暗証", "密碼", "ピン", "비밀번호", "핀번호", "mã pin", "รหัส pin", "رمز pin", "पिन",
  ],
  /** "code" — a credential only when it opens something (see accessObject) or is a compound of one. */
  code: [
    "code", "codes", "codigo", "codice", "kod", "kodu", "koden", "koodi", "код", "kód", "kodas", "kode", "mã", "รหัส", "رمز", "קוד",
    // Compounds that name what they open.
    "digicode", "*turcode", "*torcode", "*alarmcode", "*deurcode", "*toegangscode", "*portkod", "*dorrkod", "*larmkod", "*portkode", "*dorkode",
    "door code", "gate code", "alarm code", "entry code", "access code", "keypad code", "lock code", "unlock code", "garage code", "security code",
    "ドアコード", "暗証コード", "门禁密码", "解锁码", "开锁密码", "비밀 코드", "도어락 비밀번호",
  ],
  /** What an access code opens: a code "for the back door" is a credential, an "error code" is not. */
  accessObject: [
    // en
    "door", "doors", "backdoor", "gate", "garage", "alarm", "safe", "lock", "locker", "padlock", "keypad", "building", "entrance", "house", "flat",
    "apartment", "office", "phone", "laptop", "vault", "storage", "bike", "lockbox", "key safe", "intercom", "front", "back",
    // de
    "tur", "haustur", "*tur", "tor", "garagentor", "alarmanlage", "tresor", "schloss", "fahrradschloss", "haus", "wohnung", "buro", "handy", "schliessfach",
    // fr
    "porte", "portail", "alarme", "coffre", "coffre-fort", "cadenas", "immeuble", "maison", "appartement", "bureau", "telephone", "portable", "interphone",
    // es
    "puerta", "portal", "garaje", "alarma", "caja fuerte", "candado", "edificio", "casa", "piso", "oficina", "movil", "celular", "taquilla",
    // it
    "porta", "portone", "cancello", "allarme", "cassaforte", "lucchetto", "palazzo", "ufficio", "telefono", "cellulare", "armadietto",
    // pt
    "portao", "garagem", "cofre", "cadeado", "predio", "escritorio",
    // nl
    "deur", "voordeur", "achterdeur", "poort", "kluis", "slot", "fietsslot", "woning", "kantoor", "telefoon",
    // pl tr sv ru
    "drzwi", "brama", "bram*", "garaz*", "sejf*", "klodk*", "furtk*", "kapi", "garaj", "kasa", "kilit", "dorr", "port", "larm", "kassaskap", "las",
    "двер*", "ворот*", "гараж*", "сигнализац*", "сейф*", "замк*", "замок", "домофон*",
    // ja zh ko
    "ドア", "玄関", "金庫", "ロッカー", "门", "門", "保险箱", "锁", "鎖", "门禁", "문", "현관", "금고", "도어락",
    // networks and cards a code opens
    "wifi", "wi-fi", "wlan", "router", "card", "carte", "karte", "tarjeta", "carta", "cartao", "kaart", "karta", "karty", "kart", "kortet", "карт*",
    // stairwells and intercoms
    "klatk*", "domofon*", "portier", "trappuppgang", "oppgang",
  ],
  /**
   * What a code is keyed into: a lock, a safe, an alarm, a keypad. A digit code in its clause is
   * the code even with no word for "code" ("the safe is set to 0 3 1 5").
   */
  lock: [
    "safe", "alarm", "keypad", "padlock", "lockbox", "key safe", "vault", "tresor", "alarmanlage", "zahlenschloss", "coffre", "coffre-fort", "alarme", "cadenas", "digicode",
    "caja fuerte", "alarma", "candado", "cassaforte", "allarme", "lucchetto", "cofre", "cadeado", "kluis", "sejf", "klodka", "alarm", "kasa", "kassaskap", "larm", "larmet", "alarmen",
    "сейф*", "сигнализац*", "金庫", "保险箱", "保險箱", "금고", "도어락",
  ],
  /** Backup codes of two-factor sign-in: each one opens the account. */
  recoveryCode: [
    "backup code", "backup codes", "recovery code", "recovery codes", "2fa code", "2fa codes", "2fa backup codes", "*backupcode", "*backupcodes", "backup-code*", "*wiederherstellungscode*", "notfallcode*",
    "codes de secours", "code de secours", "codes de recuperation", "code de recuperation", "codigos de respaldo", "codigo de respaldo", "codigos de recuperacion", "codigo de recuperacion",
    "codici di backup", "codice di backup", "codici di recupero", "codice di recupero", "codigos de backup", "codigos de recuperacao", "codigo de recuperacao",
    "herstelcode*", "back-upcode*", "kody zapasowe", "kod zapasowy", "kody odzyskiwania", "yedek kod*", "kurtarma kod*", "reservkod*", "aterstallningskod*", "backupkod*", "gjenopprettingskode*",
    "резервн* код*", "код* восстановления", "バックアップコード", "リカバリーコード", "备用码", "恢复码", "백업 코드", "복구 코드",
  ],
  /** A security question: its answer stands in for a password. */
  securityQuestion: [
    "security question", "security questions", "secret question", "security answer", "memorable word", "sicherheitsfrage", "geheimfrage", "question secrete", "question de securite",
    "pregunta de seguridad", "pregunta secreta", "domanda di sicurezza", "domanda segreta", "pergunta de seguranca", "pergunta secreta", "beveiligingsvraag", "geheime vraag",
    "pytanie zabezpieczajace", "pytanie bezpieczenstwa", "guvenlik sorusu", "sakerhetsfraga", "sikkerhedssporgsmal", "sikkerhetssporsmal", "контрольн* вопрос*", "секретн* вопрос*",
    "秘密の質問", "安全问题", "密保问题", "보안 질문",
  ],
  /** The security code printed on a payment card (CVV, CVC, card check digits). */
  cardCheck: [
    "cvv", "cvc", "cvv2", "cvc2", "cid", "csc", "card security code", "card verification", "kartenprufnummer", "kartenprufziffer", "prufziffer", "prufnummer", "sicherheitscode",
    "cryptogramme", "code de securite", "codigo de seguridad", "codice di sicurezza", "codigo de seguranca", "beveiligingscode", "kod cvv", "kod cvc", "kod zabezpieczajacy",
    "guvenlik kodu", "sakerhetskod", "sikkerhedskode", "sikkerhetskode", "код безопасности", "セキュリティコード", "安全码", "보안 코드",
  ],
  /** The combination of a lock or safe. */
  combination: ["combination", "combo", "kombination", "combinaison", "combinacion", "combinazione", "combinacao", "combinatie", "kombinacj*", "kombinasyon*", "комбинац*", "ダイヤル番号", "密码组合", "조합"],
  /** Credentials: what they are is secret (the value after them is a password, not a user name). */
  credentials: [
    "credentials", "credential", "creds", "*zugangsdaten", "*anmeldedaten", "*logindaten", "identifiants de connexion", "credenciales", "credenziali", "credenciais",
    "inloggegevens", "dane logowania", "giris bilgileri", "inloggningsuppgifter", "учетн* данн*", "認証情報", "登录凭证", "凭据", "자격 증명",
  ],
  /** Login data: the value after them may be the user name; a password-shaped one near them is the password. */
  login: [
    "login", "logins", "log-in", "log in", "sign-in", "username", "user name", "userid", "user id", "benutzername", "benutzer",
    "identifiant", "identifiants", "nom d'utilisateur", "connexion", "usuario", "nombre de usuario", "nome utente", "utente", "utilizador", "nome de usuario",
    "gebruikersnaam", "inlog", "nazwa uzytkownika", "kullanici adi", "anvandarnamn",
    "логин*", "ログイン", "ユーザー名", "ユーザ名", "账号", "帐号", "账户", "用户名", "登录", "登入", "아이디", "사용자 이름", "로그인", "계정",
  ],
  /** A secret value ("client secret", "the secret is …"). */
  secret: ["secret", "secrets", "geheimnis", "secreto", "segreto", "segredo", "geheim", "sekret", "gizli", "hemlig", "секрет", "シークレット", "秘密", "시크릿", "비밀"],
  /** "key" in the sense of a cryptographic or API key; a credential only with a qualifier (keyQualifier). */
  key: [
    "key", "keys", "apikey", "*schlussel", "cle", "clef", "clave", "llave", "chiave", "chave", "*sleutel", "klucz*", "anahtar*", "nyckel*", "nøgle", "nogle", "nokkel*",
    "avain*", "klic*", "kulcs*", "cheie", "cheia", "ключ*", "κλειδ*", "מפתח", "مفتاح", "کلید", "कुंजी", "চাবি", "กุญแจ", "khoa", "kunci", "ufunguo",
    "キー", "鍵", "密钥", "秘钥", "金鑰", "키",
  ],
  /** What makes a key a secret: API, private, secret, access, signing, wallet… */
  keyQualifier: [
    "api", "private", "secret", "access", "signing", "encryption", "encryptie*", "verschlusselung*", "chiffrement", "cifrado", "crittograf*", "criptograf*", "szyfrowani*", "sifreleme", "kryptering*", "salaus*", "шифрован*", "master", "wallet", "license", "licence", "product", "activation", "client", "app", "ssh", "gpg", "pgp",
    "privat*", "prive", "privee", "privada", "privado", "privata", "privato", "prywatn*", "ozel", "приватн*", "закрыт*", "секретн*", "ιδιωτικ*", "خاص", "خصوصی", "निजी",
    "geheim*", "secreta", "segreta", "secreto", "lizenz*", "licencia", "licenza", "licenca", "produkt*", "aktivierung*", "cuzdan*", "wallet*", "portefeuille", "billetera", "cartera", "portafoglio", "carteira", "portfel*",
    "秘密", "私钥", "私鑰", "私人", "개인", "비밀", "ウォレット", "钱包", "錢包", "지갑",
  ],
  /** "API" (the same word in every language). */
  api: ["api"],
  /** A wallet's recovery words. */
  seed: [
    "seed", "seed phrase", "seed words", "mnemonic", "recovery phrase", "recovery words", "backup phrase", "backup words", "secret recovery phrase",
    "*wiederherstellungsphrase", "*wiederherstellungsworter", "seed-phrase", "phrase de recuperation", "mots de recuperation", "phrase secrete", "phrase mnemonique",
    "frase semilla", "frase de recuperacion", "palabras de recuperacion", "frase di recupero", "parole di recupero", "frase seed", "frase de recuperacao", "palavras de recuperacao", "frase semente",
    "herstelzin", "seedzin", "herstelwoorden", "fraza odzyskiwania", "kurtarma ifadesi", "aterstallningsfras", "сид-фраз*", "мнемоническ*", "фраз* восстановления",
    "シードフレーズ", "リカバリーフレーズ", "復元フレーズ", "助记词", "助記詞", "恢复短语", "시드 구문", "복구 구문", "니모닉",
  ],
  /** An access token. */
  token: ["token", "tokens", "токен*", "トークン", "令牌", "토큰", "jeton", "ficha"],
};

/**
 * Words that link a cue to its value ("is", ":" is handled apart), in the same languages: the
 * copula and its common contractions, and verbs of naming ("lautet", "c'est", "to", "は").
 */
export const LINK_WORDS: readonly string[] = [
  "is", "was", "are", "be", "equals", "reads", "it's", "its", "now", "still", "just", "literally", "set to", "changed to",
  "ist", "lautet", "heisst", "war", "sind", "est", "c'est", "cest", "etait", "es", "era", "son", "e", "sono", "era", "eh", "sao", "foi", "fica",
  "zijn", "luidt", "ar", "er", "var", "jest", "to", "je", "jsou", "este", "e", "je", "это", "—", "ist", "olan", "dir", "dır", "dur", "tir",
  "on", "van", "ειναι", "היא", "הוא", "هي", "هو", "است", "ہے", "है", "হল", "คือ", "ndio", "ay",
  "是", "为", "為", "は", "が", "：", "는", "은", "이", "입니다", "이에요", "예요", "là", "adalah", "ialah", "ni",
];

/**
 * Closed-class words that may stand between a value and its cue word when the value comes first
 * ("Sommerregen2023$ – das ist mein Passwort", "0917 is the PIN for my card"): copulas,
 * demonstratives, articles and possessives.
 */
export const GLUE_WORDS: readonly string[] = [
  "is", "was", "that's", "thats", "this", "that", "it", "it's", "the", "my", "our", "your", "his", "her", "their", "a", "new", "current", "old",
  "user's", "users'", "user’s", "the user's", "customer's", "client's", "account's",
  "das", "ist", "dies", "mein", "meine", "unser", "unsere", "dein", "deine", "der", "die", "neue", "aktuelle",
  "c'est", "cest", "ce", "est", "mon", "ma", "mes", "notre", "le", "la", "l'", "nouveau", "nouvelle",
  "es", "eso", "esa", "esta", "este", "mi", "mis", "nuestra", "nuestro", "el", "nueva", "nuevo",
  "e", "è", "questa", "questo", "la", "mia", "mio", "il", "nostra", "nuova",
  "é", "essa", "esse", "minha", "meu", "o", "a", "nossa",
  "dat", "dit", "het", "de", "mijn", "ons", "onze", "nieuwe",
  "to", "jest", "moje", "moja", "moj", "det", "ar", "mitt", "min", "vart", "это", "мой", "моя", "bu", "benim",
];
