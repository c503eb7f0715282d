/** Hands a file the page fetched (with the user's token, so not a plain link) to the browser's downloads. */
export function saveDownload(content: Blob, fileName: string): void {
  const url = URL.createObjectURL(content);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the URL by then; a minute is ample even on a slow disk.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
