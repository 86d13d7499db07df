// Shell completion scripts (bash, zsh, fish), generated from the commander tree so
// they always match the commands and flags that exist.
import type { Command } from 'commander';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

interface Node {
  path: string[];
  description: string;
  subcommands: { name: string; description: string }[];
  flags: { name: string; description: string }[];
}

function walk(cmd: Command, path: string[], globals: Node['flags'], out: Node[]): void {
  const flags = [
    ...globals,
    ...cmd.options
      .filter((o) => o.long && (path.length === 0 || o.long !== '--version'))
      .map((o) => ({ name: o.long!, description: o.description })),
  ];
  const subs = cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
  out.push({
    path,
    description: cmd.description(),
    subcommands: subs.flatMap((c) =>
      [c.name(), ...c.aliases()].map((name) => ({ name, description: c.description() })),
    ),
    flags: [...flags, { name: '--help', description: 'show help' }],
  });
  for (const c of subs) {
    for (const name of [c.name(), ...c.aliases()]) {
      walk(
        c,
        [...path, name],
        path.length === 0 ? flags.filter((f) => f.name !== '--version') : globals,
        out,
      );
    }
  }
}

function nodes(program: Command): Node[] {
  const out: Node[] = [];
  walk(program, [], [], out);
  return out;
}

const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

function bash(program: Command): string {
  const list = nodes(program);
  const cases = list
    .map(
      (n) =>
        `    ${q(n.path.join(' '))}) words=${q([...n.subcommands.map((s) => s.name), ...n.flags.map((f) => f.name)].join(' '))} ;;`,
    )
    .join('\n');
  const known = list.map((n) => n.path.join(' ')).filter((p) => p !== '');
  return `# bash completion for ws (generated from the command tree; source it or put it in bash-completion's directory)
_ws() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" next i w words
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ $w == -* ]] && continue
    next="\${path:+$path }$w"
    case "$next" in
${known.map((p) => `      ${q(p)}) path="$next" ;;`).join('\n')}
    esac
  done
  case "$path" in
${cases}
    *) words="" ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _ws ws
`;
}

function zsh(program: Command): string {
  const list = nodes(program);
  const esc = (s: string) => s.replace(/([:\\])/g, '\\$1');
  const cases = list
    .map((n) => {
      const items = [
        ...n.subcommands.map((s) => `${esc(s.name)}:${esc(s.description)}`),
        ...n.flags.map((f) => `${esc(f.name)}:${esc(f.description)}`),
      ];
      return `    ${q(n.path.join(' '))}) items=(${items.map(q).join(' ')}) ;;`;
    })
    .join('\n');
  const known = list.map((n) => n.path.join(' ')).filter((p) => p !== '');
  return `#compdef ws
# zsh completion for ws (generated from the command tree; put it on $fpath as _ws)
_ws() {
  local path="" next w
  local -a items
  for w in "\${(@)words[2,CURRENT-1]}"; do
    [[ $w == -* ]] && continue
    next="\${path:+$path }$w"
    case "$next" in
${known.map((p) => `      ${q(p)}) path="$next" ;;`).join('\n')}
    esac
  done
  case "$path" in
${cases}
    *) _files; return ;;
  esac
  _describe 'ws' items
}
_ws "$@"
`;
}

function fish(program: Command): string {
  const list = nodes(program);
  const known = list.map((n) => n.path.join(' ')).filter((p) => p !== '');
  const lines = ['complete -c ws -f'];
  for (const n of list) {
    const cond = `__ws_path_is ${q(n.path.join(' '))}`;
    for (const s of n.subcommands)
      lines.push(`complete -c ws -n ${q(cond)} -a ${q(s.name)} -d ${q(s.description)}`);
    for (const f of n.flags)
      lines.push(`complete -c ws -n ${q(cond)} -l ${q(f.name.slice(2))} -d ${q(f.description)}`);
  }
  return `# fish completion for ws (generated from the command tree)
function __ws_path_is
    set -l known ${known.map(q).join(' ')}
    set -l words (commandline -opc)
    set -e words[1]
    set -l path ''
    for w in $words
        string match -q -- '-*' $w; and continue
        set -l next (string trim -- "$path $w")
        contains -- $next $known; and set path $next
    end
    test "$path" = "$argv[1]"
end
${lines.join('\n')}
`;
}

export function completionScript(program: Command, shell: Shell): string {
  switch (shell) {
    case 'bash':
      return bash(program);
    case 'zsh':
      return zsh(program);
    case 'fish':
      return fish(program);
  }
}
