export { WordNet, wordnetDictPath, PARTS_OF_SPEECH, type WordNetOptions } from "./wordnet.js";
export { VocabularyBridge, RELATION_WEIGHTS, sharedWordNet, type BridgeTerm, type VocabularyBridgeOptions } from "./vocabulary-bridge.js";
export type { PartOfSpeech, Synset, SynsetPointer } from "./synset.js";
