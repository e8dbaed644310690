# `make help`: prints the targets of the Makefile it reads, section by section.
#   awk -f scripts/make-help.awk Makefile
# A `##@ Title: target target …` line names a section and its targets, in the order printed; the `##@`
# lines come before the targets. A `## target: text` line starts a target's description (`target` must
# be in a section), and the `##` lines right after it continue it. Make's `$(NAME)` prints as NAME.
# POSIX awk (Debian's mawk): nothing to install, no toolchain.

function plain(text) {
    while (match(text, /\$\([A-Z_]+\)/))
        text = substr(text, 1, RSTART - 1) substr(text, RSTART + 2, RLENGTH - 3) substr(text, RSTART + RLENGTH)
    return text
}

# Prints `text` after the name column, wrapped at `width` columns.
function entry(name, text, width,    words, count, i, line, column) {
    column = 30
    line = sprintf("  %-" (column - 3) "s ", name)
    count = split(text, words, " ")
    for (i = 1; i <= count; i++) {
        if (length(line) + 1 + length(words[i]) > width && length(line) > column) {
            print line
            line = sprintf("%" column "s", "")
        }
        line = (length(line) == column) ? line words[i] : line " " words[i]
    }
    print line
}

/^##@ / {
    split_at = index($0, ": ")
    sections++
    title[sections] = substr($0, 5, split_at - 5)
    members[sections] = substr($0, split_at + 2)
    count = split(members[sections], names, " ")
    for (i = 1; i <= count; i++) listed[names[i]] = 1
    next
}

/^## / {
    text = substr($0, 4)
    if (match(text, /^[a-z][a-z0-9-]*: /) && (substr(text, 1, RLENGTH - 2) in listed)) {
        current = substr(text, 1, RLENGTH - 2)
        description[current] = plain(substr(text, RLENGTH + 1))
    } else if (current != "") {
        description[current] = description[current] " " plain(text)
    }
    next
}

{ current = "" }

END {
    print "make TARGET [VARIABLE=value …], what a user runs first (the Makefile's `## target:` comments; README.md has more)"
    for (s = 1; s <= sections; s++) {
        print ""
        print title[s] ":"
        count = split(members[s], names, " ")
        for (i = 1; i <= count; i++) entry(names[i], description[names[i]], 120)
    }
}
