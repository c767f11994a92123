# fish completion for settings-editor: verbs, options, suite names, the keys of a suite (those
# its published schemas list, then those it stores), write's type flags.
set -l verbs read read-type write rename delete domains find export import watch log migrate list-schemas list-keys describe range reset reset-recursively schema cloud help
complete -c settings-editor -f
complete -c settings-editor -n "not __fish_seen_subcommand_from $verbs" -a "$verbs"
complete -c settings-editor -n "not __fish_seen_subcommand_from $verbs" -l readonly -d 'show values, change none'
complete -c settings-editor -n "not __fish_seen_subcommand_from $verbs" -l color -x -a 'auto always never' -d 'colour'
complete -c settings-editor -n "not __fish_seen_subcommand_from $verbs" -l version -d 'show the version'
complete -c settings-editor -n "not __fish_seen_subcommand_from $verbs" -a '(__fish_complete_suffix .plist)'
complete -c settings-editor -n "__fish_seen_subcommand_from read read-type write rename delete export import watch log migrate; and test (count (commandline -opc)) -eq 2" -a '(settings-editor domains 2>/dev/null)' -d suite
complete -c settings-editor -n "__fish_seen_subcommand_from read read-type write rename delete watch log; and test (count (commandline -opc)) -eq 3" -a '(settings-editor list-keys --all (commandline -opc)[3] 2>/dev/null)' -d key
complete -c settings-editor -n "__fish_seen_subcommand_from help" -a "$verbs"
complete -c settings-editor -n "__fish_seen_subcommand_from cloud; and not __fish_seen_subcommand_from status" -a status -d 'the state of the cloud store'
complete -c settings-editor -n "__fish_seen_subcommand_from list-keys describe range reset reset-recursively; and test (count (commandline -opc)) -eq 2" -a '(settings-editor list-schemas 2>/dev/null | cut -f1 | sort -u)' -d 'schema store'
complete -c settings-editor -n "__fish_seen_subcommand_from describe range reset; and test (count (commandline -opc)) -eq 3" -a '(settings-editor list-keys (commandline -opc)[3] 2>/dev/null)' -d key
complete -c settings-editor -n "__fish_seen_subcommand_from schema; and not __fish_seen_subcommand_from remove" -a remove -d 'remove published schemas'
complete -c settings-editor -n "__fish_seen_subcommand_from remove" -a '(settings-editor list-schemas 2>/dev/null | cut -f3 | sort -u)' -d program
complete -c settings-editor -n "__fish_seen_subcommand_from remove" -l gone -d 'every program gone'
complete -c settings-editor -n "__fish_seen_subcommand_from read" -l raw -d 'data as bytes, not JSON'
complete -c settings-editor -n "__fish_seen_subcommand_from export import" -l json -d 'JSON instead of a property list'
for flag in string int integer float real bool boolean date data array array-add dict dict-add json
  complete -c settings-editor -n "__fish_seen_subcommand_from write" -o $flag
end
