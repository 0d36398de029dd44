import { regexDetector, type Detector } from "./categories.js";
import { bsnValid, cpfValid, germanTaxIdValid, luhnValid, nirValid, spanishIdValid, verhoeffValid } from "./checksums.js";

/**
 * National identity numbers. Formats distinctive enough on their own (US SSN with separators, UK
 * NI, Spanish DNI/NIE, Italian codice fiscale, French NIR, Brazilian CPF, spaced Aadhaar) match
 * anywhere; bare digit runs (Canadian SIN, Dutch BSN, German Steuer-ID, passports, driving licences)
 * only next to their name, so order and phone numbers are not flagged.
 */

const digitsOf = (s: string) => s.replace(/\D/g, "");
/** Label, then up to 20 non-digit characters ("is", ":", "number is"), then the value. */
const near = (label: string, value: string) => new RegExp(`\\b(?:${label})\\b[^\\d\\n]{0,24}?(${value})(?![\\d])`, "gi");

function ssnParts(area: string, group: string, serial: string): boolean {
  return area !== "000" && area !== "666" && !area.startsWith("9") && group !== "00" && serial !== "0000";
}

export const NATIONAL_ID_DETECTORS: Detector[] = [
  regexDetector("us_ssn", "national_id", /(?<![\d-])(\d{3})([- ])(\d{2})\2(\d{4})(?![\d-])/g, (m) => ssnParts(m[1], m[3], m[4])),
  regexDetector(
    "us_ssn_context",
    "national_id",
    near("SSN|social security(?: number| no\\.?| #)?", "\\d{9}"),
    (m) => ssnParts(m[1].slice(0, 3), m[1].slice(3, 5), m[1].slice(5)),
    1,
  ),
  regexDetector(
    "uk_nino",
    "national_id",
    /\b([A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]) ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b/gi,
    (m) => !["BG", "GB", "NK", "KN", "TN", "NT", "ZZ"].includes(m[1].toUpperCase()),
  ),
  regexDetector("ca_sin", "national_id", near("SIN|social insurance(?: number)?", "\\d{3}[ -]?\\d{3}[ -]?\\d{3}"), (m) => luhnValid(digitsOf(m[1])), 1),
  regexDetector(
    "fr_nir",
    "national_id",
    /\b[12] ?\d{2} ?(?:0[1-9]|1[0-2]|[2-9]\d) ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}\b/gi,
    (m) => nirValid(m[0].replace(/ /g, "")),
  ),
  regexDetector("es_dni_nie", "national_id", /\b(?:\d{8}|[XYZ]-?\d{7})-?[A-Z]\b/gi, (m) => spanishIdValid(m[0])),
  regexDetector("it_codice_fiscale", "national_id", /\b[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]\b/gi),
  regexDetector("br_cpf", "national_id", [/\b\d{3}\.\d{3}\.\d{3}-\d{2}\b/g, near("CPF", "\\d{11}")], (m) => cpfValid(digitsOf(m[1] ?? m[0]))),
  regexDetector("nl_bsn", "national_id", near("BSN|burgerservicenummer|citizen service number", "\\d{9}"), (m) => bsnValid(m[1]), 1),
  regexDetector("in_aadhaar", "national_id", [/\b[2-9]\d{3} \d{4} \d{4}\b/g, near("aadhaar|aadhar", "[2-9]\\d{3} ?\\d{4} ?\\d{4}")], (m) =>
    verhoeffValid(digitsOf(m[1] ?? m[0])),
  ),
  regexDetector(
    "de_tax_id",
    "national_id",
    near("Steuer-?ID|Steuer-?Identifikationsnummer|Steueridentifikationsnummer|IdNr|tax ID|TIN|tax identification number", "\\d{2} ?\\d{3} ?\\d{3} ?\\d{3}"),
    (m) => germanTaxIdValid(digitsOf(m[1])),
    1,
  ),
  regexDetector("se_personnummer", "national_id", near("personnummer|personal identity number", "\\d{6,8}[-+]?\\d{4}"), (m) => luhnValid(digitsOf(m[1]).slice(-10)), 1),
  // Labelled numbers whose format varies by country: the label is what makes them sensitive.
  regexDetector(
    "labelled_id_number",
    "national_id",
    /\b(?:passport|driv(?:er'?s|ing) licen[cs]e|national (?:id|identity|insurance)(?: card)?|id card|identity card|personal (?:id|identification)|PESEL|NIF|CURP|RUT|DNI|Personalausweis(?:nummer)?|Reisepass(?:nummer)?|tax file|TFN|medicare card)(?:\s+(?:number|no\.?|#|num))?\s*(?:is|was|:|=|#|-)?\s*([A-Z]{0,3}\d[\dA-Z -]{3,17}\d[A-Z]?)\b/gi,
    (m) => (m[1].match(/\d/g) ?? []).length >= 5,
    1,
  ),
];
