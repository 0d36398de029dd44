/** The shape of one analysed clause: what `analyseMessage` returns, plain data only. */

/** How a clause is meant: asks something, tells the assistant to do something, or states something. */
export type SentenceType = "question" | "command" | "statement";

/** Grammatical person of a clause's subject. `none` for commands and fragments. */
export type Person = "i" | "we" | "you" | "third" | "none";

/** Coarse tense of the main verb. `perfect` is "have done" (past with present relevance). */
export type Tense = "past" | "present" | "perfect" | "future";

export interface ClauseSubject {
  /** The subject as written ("my daughter Ana", "i", "our team"). */
  text: string;
  person: Person;
  /** Whose it is, for a possessed subject ("my son" → `i`, "our beagle" → `we`). */
  possessor?: "i" | "we" | "you";
  /** Head noun of a third-person subject, singular, lower case ("daughter", "team", "beagle"). */
  head?: string;
  /** A proper name inside the subject ("Ana" in "my daughter Ana"). */
  name?: string;
}

export interface ClauseVerb {
  /** The verb phrase as written ("don't eat", "have been"). */
  text: string;
  /** Infinitive of the main verb ("eat", "be", "move"). */
  lemma: string;
  tense: Tense;
  /** A modal before it ("can", "should", "will", "would", "might"), lower case. */
  modal?: string;
  /** Progressive aspect: an action under way ("I'm heading to the gym", "we were cooking"). */
  progressive: boolean;
  /** A form of "be" is the main verb ("I'm vegan"). */
  copula: boolean;
}

export interface ClauseTerm {
  /** Normalised word (lower case, no punctuation, contractions expanded). */
  normal: string;
  /** compromise tags of the word (`Noun`, `Pronoun`, `Date`, `Negative`, …). */
  tags: string[];
}

export interface Clause {
  /** The clause as written, without a discourse opener ("tbh", "hey") or trailing punctuation. */
  text: string;
  /** Position of its sentence in the message (0-based), and of the clause overall. */
  sentence: number;
  index: number;
  type: SentenceType;
  subject: ClauseSubject | null;
  verb: ClauseVerb | null;
  /** The clause is a condition ("if I …", "when you write SQL"), not a statement of its own. */
  condition: boolean;
  /** The clause says "not", "never", "no longer", "n't" … about its verb. */
  negative: boolean;
  people: string[];
  places: string[];
  organizations: string[];
  dates: string[];
  numbers: string[];
  /** The words with their tags, opener excluded. */
  terms: ClauseTerm[];
}
