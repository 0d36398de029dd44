/**
 * Words for identity documents and national identity, tax and social-security numbers, by
 * language. Source: the names of the numbers themselves (each country's official name and its
 * common abbreviation, as listed in Wikipedia's "National identification number" article and the
 * Wiktionary translations of "identity card", "passport", "social security number" and "tax
 * identification number"), not any test corpus. Short abbreviations that are also common words
 * in another language ("ein", "sin", "nie", "cc") are left out. Entry syntax: see credential-words.ts.
 */

export const ID_DOCUMENT_WORDS: readonly string[] = [
  // Generic, by language
  "id card", "id number", "id no", "identity card", "identity number", "identity document", "national id", "national identity", "identification number", "personal number", "personal id",
  "*ausweis", "ausweisnummer", "personalausweis*", "perso", "persos", "identitatskarte", "id-karte", "*ausweisnr",
  "carte d'identite", "cni", "piece d'identite", "numero d'identite", "carte vitale", "numero de securite sociale", "securite sociale", "secu", "numero fiscal",
  "dni", "documento de identidad", "documento nacional de identidad", "cedula", "carnet de identidad", "numero de identificacion", "seguridad social", "nuss",
  "carta d'identita", "carta di identita", "documento d'identita", "codice fiscale", "tessera sanitaria",
  "cartao de cidadao", "cartao do cidadao", "bilhete de identidade", "numero de contribuinte", "contribuinte", "carteira de identidade", "seguranca social", "niss",
  "identiteitskaart", "id-kaart", "identiteitsbewijs", "bsn", "burgerservicenummer", "rijksregisternummer", "rijksregister", "insz", "sofinummer",
  "dowod osobisty", "dowod", "dowodu", "pesel", "nip", "regon",
  "kimlik", "kimligi", "kimlik no", "kimlik numarasi", "kimlik numaram", "tc kimlik", "tckn", "t.c.",
  "personnummer", "personnumret", "id-kort", "legitimation", "samordningsnummer", "cpr", "cpr-nummer", "fodselsnummer", "fødselsnummer", "fødselsnr", "d-nummer", "personbevis", "henkilotunnus", "hetu", "henkilokortti",
  "rodne cislo", "rodneho cisla", "obcansky prukaz", "szemelyi szam", "szemelyi igazolvany", "taj", "cnp", "buletin", "carte de identitate",
  "jmbg", "oib", "emso", "egn", "егн", "амка", "amka", "afm", "αμκα", "αφμ", "ταυτοτητα", "isikukood", "asmens kodas", "personas kods",
  "ahv", "avs", "ahv-nummer", "svnr", "sozialversicherungsnummer", "versicherungsnummer", "steuer-id", "steuerid", "steuernummer", "steueridentifikationsnummer", "identifikationsnummer", "idnr",
  "паспорт*", "инн", "снилс", "удостоверени*", "личн* номер", "ідентифікаційн*", "рнокпп",
  "ssn", "social security", "social insurance", "nino", "national insurance", "tax id", "tin", "itin", "tfn", "tax file", "medicare", "nhs number", "ird",
  "nif", "nir", "cpf", "curp", "rfc", "rut", "cuit", "cuil", "nric", "hkid", "aadhaar", "aadhar", "pan card", "pan number", "voter id", "emirates id", "iqama", "bvn",
  "マイナンバー", "個人番号", "身分証", "住民票", "身份证", "身份證", "居民身份证", "证件号", "證件號", "주민등록번호", "주민번호", "신분증", "외국인등록번호",
  "căn cước", "cccd", "cmnd", "ktp", "nik", "บัตรประชาชน", "เลขประจำตัวประชาชน", "آدھار", "شناختی کارت", "کد ملی", "رقم الهوية", "بطاقة الهوية", "תעודת זהות", "מספר זהות", "आधार", "पैन", "জাতীয় পরিচয়পত্র",
];

export const PASSPORT_WORDS: readonly string[] = [
  "passport", "passports", "passport number", "passport no", "reisepass*", "passnummer", "passeport*", "pasaporte*", "passaporto", "passaporti", "passaporte*", "paspoort*",
  "paszport*", "pasaport*", "passet", "passnummer", "passi", "passin", "cestovni pas", "utlevel", "pasaportul", "pasos", "putovnica", "potni list",
  "паспорт*", "загранпаспорт*", "διαβατηρι*", "דרכון", "جواز السفر", "جواز", "گذرنامه", "پاسپورٹ", "पासपोर्ट", "পাসপোর্ট", "หนังสือเดินทาง", "ho chieu", "paspor", "pasipoti",
  "パスポート", "旅券", "护照", "護照", "여권",
];

/**
 * Names of a bank account number. Source: Wiktionary translations of "bank account" and "account
 * number", and the names of domestic routing codes (sort code, routing/ABA, BSB, IFSC, transit).
 */
export const BANK_ACCOUNT_WORDS: readonly string[] = [
  "account number", "account no", "acct", "a/c", "bank account", "checking account", "savings account", "current account", "sort code", "routing", "routing number", "aba", "bsb", "ifsc", "transit number",
  "kontonummer", "kontonr", "bankkonto", "girokonto", "bankverbindung", "numero de compte", "compte bancaire", "compte courant", "rib", "numero de cuenta", "cuenta bancaria", "cuenta corriente", "clabe",
  "numero di conto", "conto corrente", "conto bancario", "numero da conta", "conta bancaria", "conta corrente", "agencia", "rekeningnummer", "bankrekening", "numer konta", "konto bankowe", "rachunek",
  "hesap numarasi", "hesap no", "banka hesabi", "kontonummer", "bankkonto", "clearingnummer", "tilinumero", "pankkitili", "cislo uctu", "bankszamla", "номер счета", "расчетный счет", "банковский счет",
  "口座番号", "銀行口座", "账号", "银行账户", "银行账号", "銀行帳戶", "계좌번호", "계좌", "số tài khoản", "nomor rekening", "เลขบัญชี", "رقم الحساب", "شماره حساب", "מספר חשבון", "खाता संख्या",
];
