/**
 * The small pages an email's links open (decision 0051): a GET shows what the link does and a
 * button; only the POST does it, so a mail scanner that follows links confirms or unsubscribes
 * nothing. No script, no style: the page's content security policy allows neither inline.
 */

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} - Leftover</title></head>` +
    `<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`
  );
}

/** A question and the one button that answers it, posting to this same address. */
export function askPage(title: string, question: string, button: string): string {
  return page(title, `<p>${escapeHtml(question)}</p><form method="post"><button type="submit">${escapeHtml(button)}</button></form>`);
}

export function donePage(title: string, text: string): string {
  return page(title, `<p>${escapeHtml(text)}</p>`);
}

/** A confirm link past its 7 days (decision 0069): and how to get a new one. */
export const CONFIRM_LINK_EXPIRED_PAGE = page(
  'This link has expired',
  '<p>This confirmation link has expired: a confirmation link works for 7 days.</p>' +
    '<p>To get a new one, remove this address from your channels in Leftover&#39;s Settings and add it again.</p>',
);

/** An unsubscribe link past its year (decision 0069): every mail carries its own, so a newer one works. */
export const UNSUBSCRIBE_LINK_EXPIRED_PAGE = page(
  'This link has expired',
  '<p>This unsubscribe link has expired: an unsubscribe link works for a year.</p>' +
    '<p>Every mail from Leftover carries its own: use the one in a more recent mail, or remove this address from your channels in Leftover&#39;s Settings.</p>',
);

export const EXPIRED_LINK_PAGE = page(
  'This link no longer works',
  '<p>This link no longer works: the address may have been removed from Leftover, or already unsubscribed.</p>',
);
