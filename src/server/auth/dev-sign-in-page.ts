/** The development provider's sign-in page: a user name, no password, and a warning saying so. */
export const DEV_SIGN_IN_PATH = '/dev-sign-in';

export function signInPage(uid: string, problem?: string): string {
  const escapedUid = encodeURIComponent(uid);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Development sign-in - Leftover</title>
<link rel="stylesheet" href="${DEV_SIGN_IN_PATH}/style.css">
</head>
<body>
<main>
<h1>Development sign-in</h1>
<p class="warning" role="note"><strong>For development only.</strong> This built-in sign-in checks no password:
anyone can sign in as any user name. Configure OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_AUDIENCE to use a real provider.</p>
<p>Each user name is its own user with its own data.</p>
<form method="post" action="${DEV_SIGN_IN_PATH}/${escapedUid}">
<label for="username">User name</label>
<input id="username" name="username" autocomplete="username" required maxlength="64" autofocus
 pattern="[A-Za-z0-9._@\\-]{1,64}" aria-describedby="username-help${problem ? ' username-problem' : ''}">
<p id="username-help" class="help">Letters, digits and . _ @ - (up to 64).</p>
${problem ? `<p id="username-problem" class="problem" role="alert">${problem}</p>` : ''}
<button type="submit">Sign in</button>
</form>
</main>
</body>
</html>`;
}

export const SIGN_IN_STYLE = `body{font-family:system-ui,sans-serif;background:#f4f6f4;margin:0}
main{max-width:28rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:.5rem;box-shadow:0 1px 4px #0002}
.warning{background:#fff3cd;border:1px solid #997404;padding:.75rem;border-radius:.25rem}
label{display:block;font-weight:600;margin-top:1rem}input{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem}
.help{color:#555;font-size:.9rem}.problem{color:#a00;font-weight:600}
button{margin-top:1rem;padding:.5rem 1.5rem;font-size:1rem;background:#146c43;color:#fff;border:0;border-radius:.25rem}`;
