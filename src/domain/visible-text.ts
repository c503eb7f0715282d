/**
 * Whether text shows anything: a name of zero-width spaces, joiners, byte-order marks, bidi
 * controls or other format and default-ignorable characters only would look empty on screen.
 * Apart from names.ts, which the page's first view loads (benchmark 4a): only the forms, the
 * server and the statement readers need it.
 */
const VISIBLE_CHARACTER = /[^\p{White_Space}\p{Cc}\p{Cf}\p{Z}\p{Default_Ignorable_Code_Point}\u2800\u3164\u115F\u1160\uFFA0\u{1D159}]/u;

/**
 * True when at least one character is neither a space, a control, a format character,
 * default-ignorable, nor one of the symbols and fillers fonts draw blank: the Braille blank
 * (U+2800), the Hangul fillers (U+3164, U+115F, U+1160, U+FFA0; default-ignorable today, named so
 * a change of Unicode data cannot let them through) and the musical null notehead (U+1D159). One
 * character class, one pass: linear in the text's length.
 */
export function hasVisibleCharacter(text: string): boolean {
  return VISIBLE_CHARACTER.test(text);
}
