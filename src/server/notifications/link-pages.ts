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

export const EXPIRED_LINK_PAGE = page(
  'This link no longer works',
  '<p>This link no longer works: the address may have been removed from Leftover, or already unsubscribed.</p>',
);
