/**
 * Phrasings the filter learned after the reliability suite's sentences showed it missed them
 * (docs/security.md): passwords without "is" or ":", passwords "changed to" a value, access codes
 * with what they open in between, sexual orientation said through the partner, support for a
 * named party, ethnicity in "as a … woman" and mixed heritage. Each family is checked on sentences
 * other than the suite's, and on look-alikes that must stay storable.
 */
import { describe, expect, it } from "@jest/globals";
import { detectSensitive, isStorable, primaryCategory } from "../../src/sensitive/detect-sensitive.js";

const refused: Array<[string, string, string]> = [
  // [text, category, the words the finding must cover]
  ["guest wifi: SSID CabinNet, password Walross4471!", "password", "Walross4471"],
  ["router login admin, pw Tz8#kq2LmN", "password", "Tz8#kq2LmN"],
  ["I set my Spotify password to Himbeere2290 last week", "password", "Himbeere2290"],
  ["we updated the shared wifi password to 88417725", "password", "88417725"],
  ["she changed her work passcode as Ostern2024", "password", "Ostern2024"],
  ["the gate code to the garage is 4471", "password", "4471"],
  ["the door code for my building: 90210", "password", "90210"],
  ["safe combination is 2208, keep it quiet", "password", "2208"],
  ["my wife and I are both women, so one double bed please", "sexual_orientation", "both women"],
  ["we're a gay couple looking for a friendly hotel", "sexual_orientation", "gay couple"],
  // …and as an extractor normalises it.
  ["User's husband and they are both men.", "sexual_orientation", "both men"],
  ["User and their wife are both women.", "sexual_orientation", "both women"],
  ["User supports the Social Democrats.", "political_opinion", "Social Democrats"],
  ["my same-sex partner will join me", "sexual_orientation", "same-sex partner"],
  ["I always vote for the Christian Democrats", "political_opinion", "Christian Democrats"],
  ["we donate to the Green Party every month", "political_opinion", "Green Party"],
  ["he campaigned for the Liberal Democrats in 2019", "political_opinion", "Liberal Democrats"],
  ["as an Asian student I get asked this a lot", "ethnicity", "Asian student"],
  ["being a Latina mother in tech is hard", "ethnicity", "Latina mother"],
  ["my dad says I'm part Cherokee", "ethnicity", "part Cherokee"],
  ["User is half-Japanese and half-Brazilian.", "ethnicity", "half-Japanese"],
];

const storable = [
  "The password reset link expired, can you resend it?",
  "I changed my password to something stronger",
  "set the password to expire in 90 days",
  "reset the admin password to default",
  "the password policy requires 12 characters",
  "the password field is broken on mobile",
  "the access code for the API docs page is in Confluence",
  "please pin lodash to 4.17.21",
  "I support the local football club",
  "she supports the greens on the golf course",
  "we support the European Union's new data rules",
  "He backed the Kickstarter Party Games campaign",
  "as a black belt I train every day",
  "I'm half asleep, let's talk tomorrow",
  "I'm part of the platform team",
  "my wife and I are both teachers",
  "our same team won again",
];

describe("phrasings the filter recognises", () => {
  it.each(refused)("%s → %s", (text, category, covered) => {
    const findings = detectSensitive(text);
    expect(primaryCategory(findings)).toBe(category);
    expect(isStorable(text)).toBe(false);
    expect(findings.some((f) => text.slice(f.start, f.end).includes(covered))).toBe(true);
  });

  it.each(storable.map((t) => [t]))("%s stays storable", (text) => {
    expect(detectSensitive(text)).toEqual([]);
  });
});
