// The shell completion scripts (bash, zsh, fish) that `ws completion SHELL` prints and the
// build writes to completions/. Each is a thin hook: at every Tab it asks `ws __complete`
// (src/complete.ts) what to offer, so the commands, flags and values offered are always
// those of the ws that answers, and it shows them the way the shell does.
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

const bash = `# bash completion for ws. Load it with: source <(ws completion bash)
# or save it as ~/.local/share/bash-completion/completions/ws. At each Tab it asks
# \`ws __complete\`, which reads only local files (profiles, the definitions cache).
_ws() {
  local cur=\${COMP_WORDS[COMP_CWORD]} directive line
  local -a values=()
  COMPREPLY=()
  {
    IFS= read -r directive || return 0
    while IFS= read -r line; do values+=("$line"); done
  } < <(ws __complete bash "$COMP_WORDBREAKS" "\${COMP_LINE:0:COMP_POINT}" 2>/dev/null)
  if [[ $directive == *files* ]]; then
    compopt -o filenames 2>/dev/null
    local IFS=$'\\n'
    COMPREPLY=($(compgen -f -- "$cur"))
    return 0
  fi
  [[ $directive == *nospace* ]] && compopt -o nospace 2>/dev/null
  COMPREPLY=("\${values[@]}")
}
complete -F _ws ws
`;

const zsh = `#compdef ws
# zsh completion for ws. Load it with: source <(ws completion zsh) (after compinit),
# or save it as _ws in a directory of $fpath. At each Tab it asks \`ws __complete\`,
# which reads only local files (profiles, the definitions cache).
_ws() {
  local -a lines values
  local directive
  lines=("\${(@f)$(ws __complete zsh "\${(@Q)words[2,CURRENT]}" 2>/dev/null)}")
  directive=\${lines[1]}
  values=("\${(@)lines[2,-1]}")
  if [[ $directive == *files* ]]; then
    _files
    return
  fi
  (( \${#values} )) || return 1
  if [[ $directive == *nospace* ]]; then
    _describe -t values 'ws' values -S ''
  else
    _describe -t values 'ws' values
  fi
}
if [[ $funcstack[1] == _ws ]]; then
  _ws "$@"
else
  compdef _ws ws
fi
`;

const fish = `# fish completion for ws. Load it with: ws completion fish | source
# or save it as ~/.config/fish/completions/ws.fish. At each Tab it asks
# \`ws __complete\`, which reads only local files (profiles, the definitions cache).
function __ws_complete
    set -l words (commandline -opc) (commandline -ct)
    set -e words[1]
    set -l out (ws __complete fish $words 2>/dev/null)
    or return
    if string match -q -- '*files*' $out[1]
        __fish_complete_path (commandline -ct)
        return
    end
    printf '%s\\n' $out[2..-1]
end
complete -c ws -f -a '(__ws_complete)'
`;

const SCRIPTS: Readonly<Record<Shell, string>> = { bash, zsh, fish };

export function completionScript(shell: Shell): string {
  return SCRIPTS[shell];
}
