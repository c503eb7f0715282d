/**
 * Whether text shows anything: a name of zero-width spaces, joiners, byte-order marks, bidi
 * controls or other format and default-ignorable characters only would look empty on screen.
 * Apart from names.ts, which the page's first view loads (benchmark 4a): only the forms, the
 * server and the statement readers need it.
 */
const VISIBLE_CHARACTER = /[^\p{White_Space}\p{Cc}\p{Cf}\p{Z}\p{Default_Ignorable_Code_Point}]/u;

/** True when at least one character is neither a space, a control, a format character nor default-ignorable. */
export function hasVisibleCharacter(text: string): boolean {
  return VISIBLE_CHARACTER.test(text);
}
