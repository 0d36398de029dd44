import { createHash } from "node:crypto";
import type { Detector } from "./categories.js";

/**
 * Wallet and signing keys by their format: a raw 32-byte key as `0x` + 64 hex (Ethereum and other
 * EVM chains), Bitcoin WIF keys and extended private keys (base58check verified), Nostr `nsec1…`,
 * Sui `suiprivkey1…`, and a 64-number byte array (a Solana keypair file). A `0x` + 64 hex value
 * in a sentence about a transaction, block or hash is that hash, not a key.
 */

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

function base58Decode(s: string): Uint8Array | null {
  let n = 0n;
  for (const ch of s) {
    const v = BASE58.indexOf(ch);
    if (v < 0) return null;
    n = n * 58n + BigInt(v);
  }
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  for (const ch of s) {
    if (ch !== "1") break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

/** Base58check: the last 4 bytes are the first 4 of sha256(sha256(payload)). */
export function base58CheckValid(s: string): boolean {
  const bytes = base58Decode(s);
  if (!bytes || bytes.length < 5) return false;
  const payload = bytes.subarray(0, bytes.length - 4);
  const sum = createHash("sha256").update(createHash("sha256").update(payload).digest()).digest();
  for (let i = 0; i < 4; i++) if (sum[i] !== bytes[bytes.length - 4 + i]) return false;
  return true;
}

/** Words that make a 0x+64-hex value a hash, not a key. */
const HASH_CONTEXT = /\b(?:tx|txn|txid|txhash|transaction|transactions|hash|hashes|block|blockhash|receipt|etherscan|explorer|commit|digest|checksum|event|topic|log|merkle|root|storage slot|slot)\b|transakt|transacc|transaz|transaç|トランザクション|交易|哈希|트랜잭션/i;

export const WALLET_KEY_DETECTORS: Detector[] = [
  {
    name: "hex_private_key",
    category: "private_key",
    find(text) {
      const out: Array<{ start: number; end: number }> = [];
      const re = /(?<![0-9A-Za-z])0x[0-9a-fA-F]{64}(?![0-9A-Za-z])/g;
      for (let m = re.exec(text); m !== null; m = re.exec(text)) {
        const sentence = text.slice(Math.max(0, m.index - 80), m.index).split(/[.!?\n]\s/).pop() ?? "";
        if (!HASH_CONTEXT.test(sentence)) out.push({ start: m.index, end: m.index + m[0].length });
      }
      return out;
    },
  },
  {
    name: "bitcoin_wif_or_xprv",
    category: "private_key",
    find(text) {
      const out: Array<{ start: number; end: number }> = [];
      const re = /(?<![0-9A-Za-z])(?:[5][HJK][1-9A-HJ-NP-Za-km-z]{49}|[KLc][1-9A-HJ-NP-Za-km-z]{51}|9[1-9A-HJ-NP-Za-km-z]{50}|[xtyzuv]prv[1-9A-HJ-NP-Za-km-z]{107,108})(?![0-9A-Za-z])/g;
      for (let m = re.exec(text); m !== null; m = re.exec(text)) if (base58CheckValid(m[0])) out.push({ start: m.index, end: m.index + m[0].length });
      return out;
    },
  },
  {
    name: "bech32_secret_key",
    category: "private_key",
    find(text) {
      const out: Array<{ start: number; end: number }> = [];
      const re = /(?<![0-9a-z])(?:nsec1[02-9ac-hj-np-z]{58}|suiprivkey1[02-9ac-hj-np-z]{50,70}|ed25519-priv-[0-9a-z]{40,})(?![0-9a-z])/gi;
      for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push({ start: m.index, end: m.index + m[0].length });
      return out;
    },
  },
  {
    name: "byte_array_keypair",
    category: "private_key",
    find(text) {
      const out: Array<{ start: number; end: number }> = [];
      const re = /\[\s*(?:\d{1,3}\s*,\s*){63}\d{1,3}\s*\]/g;
      for (let m = re.exec(text); m !== null; m = re.exec(text)) {
        const bytes = m[0].slice(1, -1).split(",").map((x) => Number(x.trim()));
        if (bytes.every((b) => b >= 0 && b <= 255) && new Set(bytes).size > 16) out.push({ start: m.index, end: m.index + m[0].length });
      }
      return out;
    },
  },
];
