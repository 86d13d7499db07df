# bash completion for ws. Load it with: source <(ws completion bash)
# or save it as ~/.local/share/bash-completion/completions/ws. At each Tab it asks
# `ws __complete`, which reads only local files (profiles, the definitions cache).
_ws() {
  local cur=${COMP_WORDS[COMP_CWORD]} directive line
  local -a values=()
  COMPREPLY=()
  {
    IFS= read -r directive || return 0
    while IFS= read -r line; do values+=("$line"); done
  } < <(ws __complete bash "$COMP_WORDBREAKS" "${COMP_LINE:0:COMP_POINT}" 2>/dev/null)
  if [[ $directive == *files* ]]; then
    compopt -o filenames 2>/dev/null
    local IFS=$'\n'
    COMPREPLY=($(compgen -f -- "$cur"))
    return 0
  fi
  [[ $directive == *nospace* ]] && compopt -o nospace 2>/dev/null
  COMPREPLY=("${values[@]}")
}
complete -F _ws ws
