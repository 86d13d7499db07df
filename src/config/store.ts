// The profile store: named profiles { base_url, team_id, api_key, rate_limit } and
// the default profile's name, in one conf-backed JSON file of mode 0600.
import { chmodSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
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
  private conf: ConfLike;

  private constructor(dir: string, conf: ConfLike) {
    this.dir = dir;
    this.conf = conf;
  }

  static async open(env: Env): Promise<ProfileStore> {
    const dir = configDir(env);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const { default: Conf } = await import('conf');
    const conf = new Conf<ConfigShape>({
      projectName: 'ws',
      projectSuffix: '',
      cwd: dir,
      configName: 'config',
      configFileMode: 0o600,
      defaults: { profiles: {} },
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
    }) as unknown as ConfLike;
    return new ProfileStore(dir, conf);
  }

  get path(): string {
    return this.conf.path;
  }

  names(): string[] {
    return Object.keys(this.conf.get('profiles') ?? {}).sort();
  }

  get(name: string): Profile | undefined {
    const profiles = this.conf.get('profiles') ?? {};
    return Object.hasOwn(profiles, name) ? profiles[name] : undefined;
  }

  set(name: string, profile: Profile): void {
    const profiles = { ...(this.conf.get('profiles') ?? {}) };
    profiles[name] = profile;
    this.conf.set('profiles', profiles);
    this.secure();
  }

  remove(name: string): boolean {
    const profiles = { ...(this.conf.get('profiles') ?? {}) };
    if (!Object.hasOwn(profiles, name)) return false;
    delete profiles[name];
    this.conf.set('profiles', profiles);
    if (this.defaultName() === name) this.conf.delete('default_profile');
    this.secure();
    return true;
  }

  defaultName(): string | undefined {
    return this.conf.get('default_profile');
  }

  setDefault(name: string): void {
    this.conf.set('default_profile', name);
    this.secure();
  }

  /** Keep the file at 0600 even if it was created or loosened by something else. */
  private secure(): void {
    if (process.platform !== 'win32') chmodSync(this.conf.path, 0o600);
  }
}

/** A key shown to people: the last four characters at most. */
export function redactKey(key: string | undefined): string {
  if (!key) return '(none)';
  if (key.length <= 8) return '…';
  return `…${key.slice(-4)}`;
}
