# fish completion for ws. Load it with: ws completion fish | source
# or save it as ~/.config/fish/completions/ws.fish. At each Tab it asks
# `ws __complete`, which reads only local files (profiles, the definitions cache).
function __ws_complete
    set -l words (commandline -opc) (commandline -ct)
    set -e words[1]
    set -l out (ws __complete fish $words 2>/dev/null)
    or return
    if string match -q -- '*files*' $out[1]
        __fish_complete_path (commandline -ct)
        return
    end
    printf '%s\n' $out[2..-1]
end
complete -c ws -f -a '(__ws_complete)'
