# bash completion for settings-editor: verbs, options, suite names, the keys of a suite (those
# its published schemas list, then those it stores), write's type flags.
_settings_editor() {
  local current=${COMP_WORDS[COMP_CWORD]}
  local verbs="read read-type write rename delete domains find export import watch log migrate list-schemas list-keys describe range reset reset-recursively schema cloud help"
  local options="--readonly --color=auto --color=always --color=never --help --version"
  if [ "$COMP_CWORD" -eq 1 ]; then
    if [[ $current == -* ]]; then
      mapfile -t COMPREPLY < <(compgen -W "$options" -- "$current")
    else
      mapfile -t COMPREPLY < <(compgen -W "$verbs" -- "$current")
      mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -X '!*.plist' -- "$current")
    fi
    return
  fi
  local verb=${COMP_WORDS[1]}
  case "$verb" in
    help)
      mapfile -t COMPREPLY < <(compgen -W "$verbs" -- "$current") ;;
    cloud)
      [ "$COMP_CWORD" -eq 2 ] && mapfile -t COMPREPLY < <(compgen -W "status" -- "$current") ;;
    schema)
      if [ "$COMP_CWORD" -eq 2 ]; then
        mapfile -t COMPREPLY < <(compgen -W "remove" -- "$current")
      elif [ "$COMP_CWORD" -eq 3 ]; then
        mapfile -t COMPREPLY < <(compgen -W "--gone $(settings-editor list-schemas 2>/dev/null \
          | cut -f3 | sort -u)" -- "$current")
      fi ;;
    list-keys|describe|range|reset|reset-recursively)
      if [ "$COMP_CWORD" -eq 2 ]; then
        mapfile -t COMPREPLY < <(compgen -W "$(settings-editor list-schemas 2>/dev/null \
          | cut -f1 | sort -u)" -- "$current")
      elif [ "$COMP_CWORD" -eq 3 ] && [ "$verb" != list-keys ] && [ "$verb" != reset-recursively ]; then
        mapfile -t COMPREPLY < <(compgen -W "$(settings-editor list-keys "${COMP_WORDS[2]}" \
          2>/dev/null)" -- "$current")
      fi ;;
    read|read-type|write|rename|delete|export|import|watch|log|migrate)
      if [ "$COMP_CWORD" -eq 2 ]; then
        mapfile -t COMPREPLY < <(compgen -W "$(settings-editor domains 2>/dev/null)" -- "$current")
        mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -X '!*.plist' -- "$current")
      elif [ "$COMP_CWORD" -eq 3 ] && [[ $current != -* ]] \
        && [[ " read read-type write rename delete watch log " == *" $verb "* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$(settings-editor list-keys --all "${COMP_WORDS[2]}" \
          2>/dev/null)" -- "$current")
      elif [ "$verb" = write ] && [[ $current == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "-string -int -integer -float -real -bool -boolean \
          -date -data -array -array-add -dict -dict-add -json" -- "$current")
      elif [ "$verb" = read ] && [[ $current == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "--raw" -- "$current")
      elif [ "$verb" = export ] || [ "$verb" = import ]; then
        mapfile -t COMPREPLY < <(compgen -W "--json" -- "$current")
        mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$current")
      fi ;;
  esac
}
complete -F _settings_editor settings-editor
