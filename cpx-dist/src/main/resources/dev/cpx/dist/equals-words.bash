
# Added by cpx's build: '--option=value' words. picocli's function above reads the value's option
# from the previous word; bash splits '--engine=na' into '--engine' '=' 'na' (when '=' is in
# COMP_WORDBREAKS), zsh keeps it one word. Both are turned into '--engine' 'na' here, and where the
# shell replaces the whole word, the answers get the '--engine=' back. Where there is nothing to
# offer, file names are.
function _@NAME@_complete() {
  local -a words
  words=("${COMP_WORDS[@]}")
  local cword=$COMP_CWORD
  local cur=${words[cword]}
  local prefix=""
  if [[ $cur == "=" && ${words[cword-1]} == --* ]]; then
    words[cword]=""
  elif [[ $cword -ge 2 && ${words[cword-1]} == "=" && ${words[cword-2]} == --* ]]; then
    words=("${words[@]:0:$((cword - 1))}" "$cur")
    cword=$((cword - 1))
  elif [[ $cur == --*=* ]]; then
    prefix="${cur%%=*}="
    words=("${words[@]:0:$cword}" "${cur%%=*}" "${cur#*=}")
    cword=$((cword + 1))
  fi
  local -a COMP_WORDS
  COMP_WORDS=("${words[@]}")
  local COMP_CWORD=$cword
  _complete_@NAME@ "$@"
  local rc=$?
  if [[ -n ${BASH_VERSION:-} && ${#COMPREPLY[@]} -eq 0 ]]; then
    # picocli's function turns bash's default completion off; with nothing else to offer, offer file
    # names (operands, -t DIRECTORY), as zsh's bashcompinit does by itself.
    compopt -o default 2>/dev/null
  fi
  if [[ -n $prefix ]]; then
    local i
    for ((i = 0; i < ${#COMPREPLY[@]}; i++)); do
      COMPREPLY[i]="$prefix${COMPREPLY[i]}"
    done
  fi
  return $rc
}
