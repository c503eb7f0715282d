/**
 * Whether text shows anything (issues 17, 22 and 34). An allow-list: a name needs one letter,
 * digit, punctuation mark or symbol (Unicode's L, N, P and S) that is neither default-ignorable
 * nor a filler. Spaces, controls, format characters (zero-width spaces, joiners, byte-order marks,
 * bidi controls) and marks on their own (U+16FE4 KHITAN SMALL SCRIPT FILLER is one) are none of
 * those, so they never count, whatever a later Unicode adds to them.
 * Apart from names.ts, which the page's first view loads (benchmark 4a): only the forms, the
 * server and the statement readers need it.
 */

/**
 * One character class behind a one-character look-ahead, one pass: linear in the text's length.
 * The fillers named are letters or symbols fonts draw blank: the Braille blank (U+2800), the Hangul
 * fillers (U+3164, U+115F, U+1160, U+FFA0; default-ignorable today, named so a change of Unicode
 * data cannot let them through) and the musical null notehead (U+1D159).
 */
const VISIBLE_CHARACTER = /(?![\p{Default_Ignorable_Code_Point}\u2800\u3164\u115F\u1160\uFFA0\u{1D159}])[\p{L}\p{N}\p{P}\p{S}]/u;

/** True when at least one character is a letter, digit, punctuation mark or symbol that shows. */
export function hasVisibleCharacter(text: string): boolean {
  return VISIBLE_CHARACTER.test(text);
}
