# bash completion for ws (generated from the command tree; source it or put it in bash-completion's directory)
_ws() {
  local cur="${COMP_WORDS[COMP_CWORD]}" path="" next i w words
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="${COMP_WORDS[i]}"
    [[ $w == -* ]] && continue
    next="${path:+$path }$w"
    case "$next" in
      'profile') path="$next" ;;
      'profile add') path="$next" ;;
      'profile list') path="$next" ;;
      'profile ls') path="$next" ;;
      'profile use') path="$next" ;;
      'profile show') path="$next" ;;
      'profile remove') path="$next" ;;
      'profile rm') path="$next" ;;
      'auth') path="$next" ;;
      'auth status') path="$next" ;;
      'whoami') path="$next" ;;
      'api') path="$next" ;;
      'sandbox') path="$next" ;;
      'sandbox start') path="$next" ;;
      'sandbox status') path="$next" ;;
      'sandbox stop') path="$next" ;;
      'completion') path="$next" ;;
    esac
  done
  case "$path" in
    '') words='profile auth whoami api sandbox completion --version --profile --json --format --fields --debug --no-color --quiet --yes --no-input --timeout --retries --help' ;;
    'profile') words='add list ls use show remove rm --profile --json --format --fields --debug --no-color --quiet --yes --no-input --timeout --retries --help' ;;
    'profile add') words='--profile --json --format --fields --debug --no-color --quiet --yes --no-input --timeout --retries --base-url --team-id --with-key --rate-limit --default --help' ;;
    'profile list') words='--profile --json --format --fields --debug --no-color --quiet --yes --no-input --timeout --retries --help' ;;
    'profile ls') words='--profile --json --format --fields --debug --no-color --quiet --yes --no-input --timeout --retries --help' ;;
    'profile use') words='--profile --json --format --fields --debug --no-color --quiet --yes --no-input --timeout --retries --help' ;;
    'profile show') words='--profile --json --format --fields --debug --no-color --quiet --yes --no-input --timeout --retries --help' ;;
    'profile remove') words='--profile --json --format --fields --debug --no-color --quiet --yes --no-input --timeout --retries --help' ;;
    'profile rm') words='--profile --json --format --fields --debug --no-color --quiet --yes --no-input --timeout --retries --help' ;;
    'auth') words='status --profile --json --format --fields --debug --no-color --quiet --yes --no-input --timeout --retries --help' ;;
    'auth status') words='--profile --json --format --fields --debug --no-color --quiet --yes --no-input --timeout --retries --help' ;;
    'whoami') words='--profile --json --format --fields --debug --no-color --quiet --yes --no-input --timeout --retries --help' ;;
    'api') words='--profile --json --format --fields --debug --no-color --quiet --yes --no-input --timeout --retries --field --input --header --include --paginate --idempotency-key --help' ;;
    'sandbox') words='start status stop --profile --json --format --fields --debug --no-color --quiet --yes --no-input --timeout --retries --help' ;;
    'sandbox start') words='--profile --json --format --fields --debug --no-color --quiet --yes --no-input --timeout --retries --host --port --api-key --team-id --data --seed --latency --fail-rate --fail-after-commit --rate-limit --no-profile --detach --help' ;;
    'sandbox status') words='--profile --json --format --fields --debug --no-color --quiet --yes --no-input --timeout --retries --help' ;;
    'sandbox stop') words='--profile --json --format --fields --debug --no-color --quiet --yes --no-input --timeout --retries --help' ;;
    'completion') words='--profile --json --format --fields --debug --no-color --quiet --yes --no-input --timeout --retries --help' ;;
    *) words="" ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _ws ws
