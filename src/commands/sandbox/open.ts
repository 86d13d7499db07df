// `ws sandbox open`: open the sandbox's console in a browser, signed in. The sandbox (the
// profile's base URL and API key, as every command finds them) hands out a one-time code
// (POST /__sandbox/console/code, with the key); ws writes a page that posts it to the
// console's sign-in form into its config directory (mode 0600), and opens that page: the
// browser signs in and moves on to the console. The code is never put in a URL, and the key
// never reaches the browser. Where no browser can be opened (no $BROWSER and no display,
// or --no-browser), the console's URL and the code are printed instead: enter the code on
// the sign-in page. A code lasts 2 minutes and signs in once.

import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NetworkError, NotFoundError, WsError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';

export interface OpenOptions {
  /** false with --no-browser: print the URL and the code instead of opening a browser. */
  browser: boolean;
}

interface Code {
  code: string;
  expires_at: string;
  login_url: string;
}

async function askForCode(baseUrl: string, apiKey: string, signal: AbortSignal): Promise<Code> {
  const base = baseUrl.replace(/\/+$/, '');
  let res: Response;
  try {
    res = await fetch(`${base}/__sandbox/console/code`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey },
      signal: AbortSignal.any([signal, AbortSignal.timeout(10_000)]),
    });
  } catch (err) {
    throw new NetworkError(`No sandbox answers at ${base}.`, {
      hint: 'Start one with `ws sandbox start` (or pick its profile with --profile).',
      cause: err,
    });
  }
  const text = await res.text();
  if (res.status === 404) {
    throw new NotFoundError(
      `${base} serves no sandbox console.`,
      'The console comes with `ws sandbox start` (not with --no-console), and only with a sandbox: check the profile (--profile sandbox).',
    );
  }
  if (res.status === 401 || res.status === 403) {
    throw new WsError(`The sandbox at ${base} refused the profile's API key (${res.status}).`, {
      code: 'auth',
      hint: 'Use the profile `ws sandbox start` saved: --profile sandbox.',
    });
  }
  if (res.status !== 201) {
    throw new WsError(
      `The sandbox at ${base} answered ${res.status} when asked for a sign-in code.`,
    );
  }
  return JSON.parse(text) as Code;
}

/** The page that signs the browser in: a form posting the code, sent as it loads. */
function signInPage(code: Code): string {
  const attr = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Opening the ws sandbox console…</title></head>
<body>
<form id="sign-in" method="post" action="${attr(code.login_url)}">
<input type="hidden" name="code" value="${attr(code.code)}">
<noscript><button type="submit">Open the console</button></noscript>
</form>
<script>document.getElementById('sign-in').submit();</script>
</body>
</html>
`;
}

/** The command that opens a file in the user's browser; undefined where there is none. */
function opener(env: NodeJS.ProcessEnv): { command: string; args: string[] } | undefined {
  const browser = env['BROWSER']?.split(':')[0]?.trim();
  if (browser) return { command: browser, args: [] };
  if (process.platform === 'darwin') return { command: 'open', args: [] };
  if (process.platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""'] };
  // Elsewhere a browser needs a display.
  if (env['DISPLAY'] || env['WAYLAND_DISPLAY']) return { command: 'xdg-open', args: [] };
  return undefined;
}

/** Start the opener on `file`; false when it could not run. */
function launch(how: { command: string; args: string[] }, file: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(how.command, [...how.args, file], { stdio: 'ignore', detached: true });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

export async function run(opts: OpenOptions, deps: Deps): Promise<void> {
  const { io } = deps;
  const creds = await deps.credentials();
  const code = await askForCode(creds.baseUrl, creds.apiKey, deps.signal);
  const consoleUrl = code.login_url.replace(/\/login$/, '/');
  const how = opts.browser ? opener(deps.env as NodeJS.ProcessEnv) : undefined;
  if (how !== undefined) {
    const dir = (await deps.config()).dir;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, 'console-sign-in.html');
    writeFileSync(file, signInPage(code), { mode: 0o600 });
    if (await launch(how, file)) {
      if (deps.format === 'json' || deps.format === 'ndjson') {
        io.println(JSON.stringify({ url: consoleUrl, opened: true }));
      } else {
        io.println(consoleUrl);
        io.info(`Opened the console in your browser (${how.command}).`);
      }
      return;
    }
    io.warn(`Could not start ${how.command} to open a browser.`);
  }
  const until = code.expires_at.slice(11, 19);
  if (deps.format === 'json' || deps.format === 'ndjson') {
    io.println(
      JSON.stringify({
        url: consoleUrl,
        opened: false,
        code: code.code,
        expires_at: code.expires_at,
      }),
    );
    return;
  }
  io.println(`Console:       ${consoleUrl}`);
  io.println(`One-time code: ${code.code}`);
  io.info(
    `Open the console's URL in a browser and enter the code to sign in (valid until ${until} UTC, once).`,
  );
}
