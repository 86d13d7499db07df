// The profile store: named profiles { base_url, team_id, api_key, rate_limit }, the
// default profile's name and the aliases (`ws alias`), in one JSON file of mode 0600.
//
// Reads parse the file directly (most commands only read a profile). Every change is a
// read-modify-write under the file's cross-process lock (util/file-lock.ts): the file is read again
// inside the lock, changed, and replaced atomically, so parallel `ws profile add` (or a
// sandbox saving its profile) never drop each other's changes. An empty file is a store
// with no profiles.
import { chmodSync, readFileSync } from 'node:fs';
import type * as Os from 'node:os';
import { join } from 'node:path';
import { WsError } from '../errors.ts';
import type { Env } from '../io/streams.ts';
import { builtin } from '../util/builtin.ts';
import { withFileLock, writeFileAtomic } from '../util/file-lock.ts';

export interface Profile {
  base_url: string;
  team_id: string;
  api_key?: string | undefined;
  rate_limit?: number | undefined;
}

interface ConfigShape {
  default_profile?: string;
  profiles: Record<string, Profile>;
  /** `ws alias`: a name and the words it stands for (see src/aliases.ts). */
  aliases?: Record<string, string>;
}

/** The directory ws keeps its files in: WS_CONFIG_DIR, else the platform's config directory. */
export function configDir(env: Env): string {
  if (env.WS_CONFIG_DIR) return env.WS_CONFIG_DIR;
  // node:os loads only where $HOME is not set.
  const home = env.HOME || builtin<typeof Os>('node:os').homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', 'ws');
  if (process.platform === 'win32') {
    return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'ws', 'Config');
  }
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'ws');
}

export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The store in `file`: none when it is missing or empty. */
function readConfig(file: string): ConfigShape {
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new WsError(`Cannot read the config file ${file}: ${(err as Error).message}`);
    }
  }
  if (text === undefined || text.trim() === '') return { profiles: {} };
  let data: ConfigShape;
  try {
    data = JSON.parse(text) as ConfigShape;
  } catch {
    throw new WsError(`The config file ${file} is not valid JSON.`, {
      hint: 'Fix it by hand, or move it away and add the profiles again with `ws profile add`.',
    });
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) data = { profiles: {} };
  if (!data.profiles || typeof data.profiles !== 'object' || Array.isArray(data.profiles))
    data.profiles = {};
  return data;
}

export class ProfileStore {
  readonly dir: string;
  readonly path: string;
  private data: ConfigShape;

  private constructor(dir: string, data: ConfigShape) {
    this.dir = dir;
    this.path = join(dir, 'config.json');
    this.data = data;
  }

  static async open(env: Env): Promise<ProfileStore> {
    const dir = configDir(env);
    return new ProfileStore(dir, readConfig(join(dir, 'config.json')));
  }

  /**
   * Reads the file afresh under its lock, applies `change` to it, and writes it back (mode
   * 0600) when `change` returns true.
   */
  private async update(change: (data: ConfigShape) => boolean): Promise<boolean> {
    return withFileLock(this.path, () => {
      const data = readConfig(this.path);
      const changed = change(data);
      if (changed) {
        writeFileAtomic(this.path, `${JSON.stringify(data, null, '\t')}\n`);
        // Keep the file at 0600 even if it was created or loosened by something else.
        if (process.platform !== 'win32') chmodSync(this.path, 0o600);
      }
      this.data = data;
      return changed;
    });
  }

  names(): string[] {
    return Object.keys(this.data.profiles).sort();
  }

  get(name: string): Profile | undefined {
    return Object.hasOwn(this.data.profiles, name) ? this.data.profiles[name] : undefined;
  }

  defaultName(): string | undefined {
    return this.data.default_profile;
  }

  /**
   * Saves a profile; with `makeDefault` 'always' it becomes the default, with 'if-none' only
   * when there is no default yet (decided in the same locked step, so two parallel adds
   * cannot both become the default). Says whether `name` is the default afterwards.
   */
  async set(
    name: string,
    profile: Profile,
    makeDefault: 'always' | 'if-none' | 'never' = 'never',
  ): Promise<boolean> {
    await this.update((data) => {
      Object.defineProperty(data.profiles, name, {
        value: profile,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      if (makeDefault === 'always' || (makeDefault === 'if-none' && !data.default_profile))
        data.default_profile = name;
      return true;
    });
    return this.data.default_profile === name;
  }

  async remove(name: string): Promise<boolean> {
    return this.update((data) => {
      if (!Object.hasOwn(data.profiles, name)) return false;
      delete data.profiles[name];
      if (data.default_profile === name) delete data.default_profile;
      return true;
    });
  }

  /** The aliases, by name (own names only: a name is data, whatever it spells). */
  aliases(): Map<string, string> {
    const out = new Map<string, string>();
    const all = this.data.aliases;
    if (all && typeof all === 'object' && !Array.isArray(all))
      for (const name of Object.keys(all))
        if (typeof all[name] === 'string') out.set(name, all[name]);
    return out;
  }

  /** Saves an alias (replacing one of the same name), under the file's lock. */
  async setAlias(name: string, expansion: string): Promise<void> {
    await this.update((data) => {
      const aliases =
        data.aliases && typeof data.aliases === 'object' && !Array.isArray(data.aliases)
          ? data.aliases
          : {};
      Object.defineProperty(aliases, name, {
        value: expansion,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      data.aliases = aliases;
      return true;
    });
  }

  /** Removes an alias; false when there was none of that name. */
  async removeAlias(name: string): Promise<boolean> {
    return this.update((data) => {
      if (!data.aliases || !Object.hasOwn(data.aliases, name)) return false;
      delete data.aliases[name];
      return true;
    });
  }

  async setDefault(name: string): Promise<void> {
    await this.update((data) => {
      data.default_profile = name;
      return true;
    });
  }
}

/** A key shown to people: the last four characters at most. */
export function redactKey(key: string | undefined): string {
  if (!key) return '(none)';
  if (key.length <= 8) return '…';
  return `…${key.slice(-4)}`;
}
