// Where a webhook's signing secret (whsec_…) is kept on this machine: a file only its owner
// can read (mode 0600), written by `ws webhooks create|listen --secret-file F` and read by
// the commands that sign or check (`--secret-file F`, or WS_WEBHOOK_SECRET for CI). The
// secret is never put in a message: at most its last four characters.
import { constants, promises as fs } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../errors.ts';
import type { Deps } from '../factory.ts';

/** The env variable that may hold the secret instead of --secret-file. */
export const SECRET_ENV = 'WS_WEBHOOK_SECRET';

/** The last four characters, for messages. */
export function secretTail(secret: string): string {
  return secret.length > 8 ? `…${secret.slice(-4)}` : '…';
}

/**
 * The secret from --secret-file, else WS_WEBHOOK_SECRET; a usage error naming both when
 * neither is given. A file others can read gets a warning.
 */
export async function readSecret(
  deps: Deps,
  file: string | undefined,
  why = 'to sign and check deliveries',
): Promise<string> {
  if (file === undefined) {
    const fromEnv = deps.env[SECRET_ENV]?.trim();
    if (fromEnv) return oneWord(fromEnv, SECRET_ENV);
    throw new UsageError(
      `A webhook secret is needed ${why}: pass --secret-file F, or set ${SECRET_ENV}.`,
      'The secret (whsec_…) is shown once when the webhook is created; `ws webhooks create --secret-file F` saves it.',
    );
  }
  const path = resolve(deps.cwd, file);
  let text: string;
  try {
    const stat = await fs.stat(path);
    if (stat.isDirectory()) throw new UsageError(`--secret-file ${file} is a directory.`);
    if ((stat.mode & 0o077) !== 0) {
      deps.io.warn(
        `${file} can be read by other users (mode ${(stat.mode & 0o777).toString(8)}); run \`chmod 600 ${file}\`.`,
      );
    }
    text = await fs.readFile(path, 'utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const e = err as NodeJS.ErrnoException;
    throw new UsageError(
      `Cannot read --secret-file ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}.`,
      'Give the file that `ws webhooks create --secret-file` wrote.',
    );
  }
  const secret = text.trim();
  if (secret === '') throw new UsageError(`--secret-file ${file} is empty.`);
  return oneWord(secret, `--secret-file ${file}`);
}

/** The secret is one word; text around it (a note, a second secret) is refused, not signed with. */
function oneWord(secret: string, where: string): string {
  if (/\s/.test(secret)) {
    throw new UsageError(
      `${where} holds more than one word: it should hold the secret alone (whsec_…).`,
    );
  }
  return secret;
}

/**
 * Before a secret that is shown once is asked for: whether `file` can be written (its
 * directory exists and is writable; the file, if it exists, is a writable file). Nothing
 * is written, so an old secret in it survives a create that fails.
 */
export async function checkWritable(deps: Deps, file: string): Promise<void> {
  const path = resolve(deps.cwd, file);
  const problem = await fs
    .stat(path)
    .then(
      async (st) => {
        if (st.isDirectory()) return 'it is a directory';
        await fs.access(path, constants.W_OK);
        return undefined;
      },
      async (err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
        await fs.access(dirname(path), constants.W_OK);
        return undefined;
      },
    )
    .catch((err: NodeJS.ErrnoException) =>
      err.code === 'ENOENT' ? 'its directory does not exist' : err.message,
    );
  if (problem) throw new UsageError(`Cannot write --secret-file ${file}: ${problem}.`);
}

/** Write the secret to `file` (created or replaced), readable by its owner only. */
export async function writeSecretFile(deps: Deps, file: string, secret: string): Promise<string> {
  const path = resolve(deps.cwd, file);
  try {
    await fs.writeFile(path, `${secret}\n`, { mode: 0o600 });
    // A file that existed keeps its mode through writeFile.
    await fs.chmod(path, 0o600);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new UsageError(
      `Cannot write --secret-file ${file}: ${e.code === 'ENOENT' ? 'its directory does not exist' : e.code === 'EISDIR' ? 'it is a directory' : e.message}.`,
    );
  }
  return path;
}
