// The profile store: named profiles { base_url, team_id, api_key, rate_limit } and
// the default profile's name, in one conf-backed JSON file of mode 0600.
//
// Every write goes through conf (atomic write, file mode). Reads parse the same file
// directly, so commands that only read a profile (most of them) never load conf and its
// schema validator: that keeps `ws auth status` and friends quick to start.
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { WsError } from '../errors.ts';
import type { Env } from '../io/streams.ts';

export interface Profile {
  base_url: string;
  team_id: string;
  api_key?: string | undefined;
  rate_limit?: number | undefined;
}

interface ConfigShape {
  default_profile?: string;
  profiles: Record<string, Profile>;
}

interface ConfLike {
  get<K extends keyof ConfigShape>(key: K): ConfigShape[K];
  set<K extends keyof ConfigShape>(key: K, value: ConfigShape[K]): void;
  delete(key: keyof ConfigShape): void;
  readonly path: string;
}

/** The directory ws keeps its files in: WS_CONFIG_DIR, else the platform's config directory. */
export function configDir(env: Env): string {
  if (env.WS_CONFIG_DIR) return env.WS_CONFIG_DIR;
  const home = env.HOME || homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', 'ws');
  if (process.platform === 'win32') {
    return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'ws', 'Config');
  }
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'ws');
}

export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export class ProfileStore {
  readonly dir: string;
  readonly path: string;
  private data: ConfigShape;
  private conf: ConfLike | undefined;

  private constructor(dir: string, data: ConfigShape) {
    this.dir = dir;
    this.path = join(dir, 'config.json');
    this.data = data;
  }

  static async open(env: Env): Promise<ProfileStore> {
    const dir = configDir(env);
    const file = join(dir, 'config.json');
    let text: string | undefined;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new WsError(`Cannot read the config file ${file}: ${(err as Error).message}`);
      }
    }
    let data: ConfigShape = { profiles: {} };
    if (text !== undefined && text.trim() !== '') {
      try {
        data = JSON.parse(text) as ConfigShape;
      } catch {
        throw new WsError(`The config file ${file} is not valid JSON.`, {
          hint: 'Fix it by hand, or move it away and add the profiles again with `ws profile add`.',
        });
      }
      if (!data || typeof data !== 'object' || Array.isArray(data)) data = { profiles: {} };
      if (!data.profiles || typeof data.profiles !== 'object') data.profiles = {};
    }
    return new ProfileStore(dir, data);
  }

  /** conf, loaded on the first write. */
  private async writer(): Promise<ConfLike> {
    if (!this.conf) {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const { default: Conf } = await import('conf');
      this.conf = new Conf<ConfigShape>({
        projectName: 'ws',
        projectSuffix: '',
        cwd: this.dir,
        configName: 'config',
        configFileMode: 0o600,
        defaults: { profiles: {} },
        accessPropertiesByDotNotation: false,
        clearInvalidConfig: false,
      }) as unknown as ConfLike;
    }
    return this.conf;
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

  async set(name: string, profile: Profile): Promise<void> {
    const conf = await this.writer();
    const profiles = { ...(conf.get('profiles') ?? {}), [name]: profile };
    conf.set('profiles', profiles);
    this.data = { ...this.data, profiles };
    this.secure();
  }

  async remove(name: string): Promise<boolean> {
    const conf = await this.writer();
    const profiles = { ...(conf.get('profiles') ?? {}) };
    if (!Object.hasOwn(profiles, name)) return false;
    delete profiles[name];
    conf.set('profiles', profiles);
    this.data = { ...this.data, profiles };
    if (conf.get('default_profile') === name) {
      conf.delete('default_profile');
      delete this.data.default_profile;
    }
    this.secure();
    return true;
  }

  async setDefault(name: string): Promise<void> {
    const conf = await this.writer();
    conf.set('default_profile', name);
    this.data = { ...this.data, default_profile: name };
    this.secure();
  }

  /** Keep the file at 0600 even if it was created or loosened by something else. */
  private secure(): void {
    if (process.platform !== 'win32') chmodSync(this.path, 0o600);
  }
}

/** A key shown to people: the last four characters at most. */
export function redactKey(key: string | undefined): string {
  if (!key) return '(none)';
  if (key.length <= 8) return '…';
  return `…${key.slice(-4)}`;
}
