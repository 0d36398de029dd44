#!/usr/bin/env bash
# Tests for scripts/memory.sh (the memory skill). `npm test` runs them through
# test/integration/skill-bash.test.ts.
#
# Every test calls memory_write/memory_search with a PATH that holds only the allowed tools (bash, jq,
# tail, touch, date, printf and grep). That proves the dependency list, and it hides rg, so the grep
# path is always tested. When rg is installed, every test runs a second time with rg added.
# HOME and MEMORY_FILE point into a temporary folder, so the real ~/.codex is never touched.
#
#   bash test/skill/run.sh            # both modes (rg only when installed)
#   bash test/skill/run.sh grep       # one mode
#   MEMORY_TEST_ONLY=window bash test/skill/run.sh   # tests whose name contains "window"
#
# Prints "ok"/"not ok" per test, then "N passed, N failed". The exit status is 0 only when none failed.
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SKILL=$ROOT/scripts/memory.sh
FIXTURES=$ROOT/test/skill/fixtures
WORK=$(mktemp -d "${TMPDIR:-/tmp}/memory-skill-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export HOME=$WORK/home
mkdir -p "$HOME/.codex"
# shellcheck source=../../scripts/memory.sh
source "$SKILL"

# Folders of symlinks: the allowed tools only.
make_bin() {
  local dir=$1 tool path
  shift
  mkdir -p "$dir"
  for tool in "$@"; do
    path=$(type -P "$tool") || { echo "missing tool for the tests: $tool" >&2; exit 1; }
    ln -s "$path" "$dir/$tool"
  done
}
make_bin "$WORK/bin-grep" bash jq tail touch date printf grep
make_bin "$WORK/bin-nojq" bash tail touch date printf grep
HAVE_RG=
if type -P rg >/dev/null; then
  HAVE_RG=1
  make_bin "$WORK/bin-rg" bash jq tail touch date printf grep rg
fi

# ---------------------------------------------------------------------------------------- harness

TOOLS=$WORK/bin-grep
mw() { PATH=$TOOLS memory_write "$@"; }
ms() { PATH=$TOOLS memory_search "$@"; }

# run CMD...: runs it, and sets OUT, ERR and RC (stdout and stderr without their final newline).
run() {
  "$@" >"$WORK/out" 2>"$WORK/err"
  RC=$?
  OUT=$(<"$WORK/out")
  ERR=$(<"$WORK/err")
}

FAILURES=()
fail() { FAILURES+=("$*"); }
assert_eq() { [ "$1" == "$2" ] || fail "${3:-values differ}: expected [$2], got [$1]"; }
# assert_jq JSON FILTER [ARGS...]: FILTER, run on JSON with jq ARGS, must print true.
assert_jq() {
  local json=$1 filter=$2 got
  shift 2
  got=$(printf '%s' "$json" | jq -c "$@" "$filter" 2>&1)
  [ "$got" == true ] || fail "jq check $filter failed on: ${json:0:400} (got ${got:0:200})"
}
assert_file_unchanged() { cmp -s "$1" "$2" || fail "the memory file changed: $(diff <(od -c "$1") <(od -c "$2") | head -5)"; }
# input JSON for a raw string: input_for CONTENT [more jq object fields as a filter]
json_content() { jq -n -c --arg c "$1" '{content: $c}'; }
# Lines of the memory file, one per line: for fixtures written without memory_write.
put_lines() { printf '%s\n' "$@" >>"$MEMORY_FILE"; }

# ---------------------------------------------------------------------------------------- tests

test_write_appends_one_entry_and_prints_it() {
  run mw '{"type":"note","content":"Prefers terse status updates.","tags":["preference"]}'
  assert_eq "$RC" 0 "status"
  assert_eq "$ERR" "" "stderr"
  assert_eq "$(wc -l <"$MEMORY_FILE")" 1 "line count"
  assert_eq "$OUT" "$(cat "$MEMORY_FILE")" "stdout is the stored line"
  assert_jq "$OUT" '(keys == ["content", "tags", "ts", "type"]) and .type == "note"
    and .content == "Prefers terse status updates." and .tags == ["preference"]
    and (.ts | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$"))
    and (((.ts[:19] + "Z") | fromdate) - now | fabs) < 600'
  assert_eq "$(stat -c %a "$MEMORY_FILE")" 600 "a new file is private to its owner"
  run mw '{"content":"Second.","meta":{"source":"user","n":[1,2.5,null,true]}}'
  assert_eq "$RC" 0 "status"
  assert_eq "$(wc -l <"$MEMORY_FILE")" 2 "line count after the second write"
  assert_jq "$(tail -n 1 "$MEMORY_FILE")" '.type == "note" and .content == "Second." and .meta == {source: "user", n: [1, 2.5, null, true]} and (has("tags") | not)'
}

test_hostile_text_round_trips_exactly() {
  local input q
  mkdir -p cwd && cd cwd || return
  # Inputs and queries are built by jq from the fixture, so the bytes reach the functions exactly.
  while IFS= read -r input && IFS= read -r q; do
    run mw "$input"
    assert_eq "$RC" 0 "write status for $input ($ERR)"
    run ms "$q"
    assert_eq "$RC" 0 "search status for $q ($ERR)"
    assert_eq "$ERR" "" "search stderr for $q"
    printf '%s\n' "$OUT" >>found.jsonl
  done < <(jq -c '.[] | ({type: "hostile", content: .} + (if utf8bytelength < 1000 then {tags: [.]} else {} end)), {q: ., limit: 1}' "$FIXTURES/hostile.json")
  assert_jq "$(jq -s -c '.' "$MEMORY_FILE")" '[.[] | .content] == $h[0] and all(.[]; .type == "hostile" and (.tags == null or .tags == [.content]))' --slurpfile h "$FIXTURES/hostile.json" 
  assert_jq "$(jq -s -c '.' found.jsonl)" '[.[] | .results | length] == [$h[0][] | 1] and [.[] | .results[0].content] == $h[0]' --slurpfile h "$FIXTURES/hostile.json"
  assert_eq "$(ls -A .)" "found.jsonl" "no command in the text ran"
  [ ! -e "$WORK/home/pwned" ] || fail "a command in the text ran"
}

test_stdin_input_with_dash() {
  local content
  content=$'It\'s "quoted", $(not run) `not run` \\ and\na second line'
  run mw - <<EOF
$(json_content "$content")
EOF
  assert_eq "$RC" 0 "status ($ERR)"
  assert_jq "$(cat "$MEMORY_FILE")" '.content == $c' --arg c "$content"
  run ms - <<<'{"q":"$(not run)"}'
  assert_jq "$OUT" '.results | length == 1'
}

test_q_is_a_literal_substring() {
  local c
  for c in "a.c" "abc" "a+c" "[x] marks" "xyz" "a\\d"; do mw "$(json_content "$c")" >/dev/null; done
  run ms '{"q":"a.c"}';   assert_jq "$OUT" '[.results[].content] == ["a.c"]'
  run ms '{"q":"."}';     assert_jq "$OUT" '[.results[].content] == ["a.c"]'
  run ms '{"q":".*"}';    assert_jq "$OUT" '.results == []'
  run ms '{"q":"^a"}';    assert_jq "$OUT" '.results == []'
  run ms '{"q":"[x]"}';   assert_jq "$OUT" '[.results[].content] == ["[x] marks"]'
  run ms '{"q":"a+c"}';   assert_jq "$OUT" '[.results[].content] == ["a+c"]'
  run ms '{"q":"\\d"}';   assert_jq "$OUT" '[.results[].content] == ["a\\d"]'
  run ms '{"q":"x|y"}';   assert_jq "$OUT" '.results == []'
}

test_case_is_ignored_for_ascii_letters_only() {
  local c
  for c in "Prefers terse status updates." "École" "STRASSE" "straße"; do mw "$(json_content "$c")" >/dev/null; done
  run ms '{"q":"prefers"}'; assert_jq "$OUT" '[.results[].content] == ["Prefers terse status updates."]'
  run ms '{"q":"PREFERS TERSE"}'; assert_jq "$OUT" '[.results[].content] == ["Prefers terse status updates."]'
  run ms '{"q":"ÉCOLE"}'; assert_jq "$OUT" '[.results[].content] == ["École"]'
  run ms '{"q":"école"}'; assert_jq "$OUT" '.results == []'
  run ms '{"q":"strasse"}'; assert_jq "$OUT" '[.results[].content] == ["STRASSE"]'
}

test_q_matches_content_tags_and_type_not_raw_json() {
  mw '{"content":"say \"hi\" now"}' >/dev/null
  mw '{"content":"C:\\temp\\new"}' >/dev/null
  mw '{"content":"line1\nline2"}' >/dev/null
  mw '{"content":"deploy notes","tags":["Deploy-PROD"]}' >/dev/null
  mw '{"type":"decision","content":"use pnpm"}' >/dev/null
  mw '{"content":"plain","meta":{"k":"zebra"}}' >/dev/null
  run ms '{"q":"\"hi\""}';       assert_jq "$OUT" '[.results[].content] == ["say \"hi\" now"]'
  run ms '{"q":"\\\"hi"}';       assert_jq "$OUT" '.results == []'
  run ms '{"q":"C:\\temp"}';     assert_jq "$OUT" '[.results[].content] == ["C:\\temp\\new"]'
  run ms '{"q":"C:\\\\temp"}';   assert_jq "$OUT" '.results == []'
  run ms '{"q":"1\nline"}';      assert_jq "$OUT" '[.results[].content] == ["line1\nline2"]'
  run ms '{"q":"\\n"}';          assert_jq "$OUT" '[.results[].content] == ["C:\\temp\\new"]'
  run ms '{"q":"content"}';      assert_jq "$OUT" '.results == []'
  run ms '{"q":"ts"}';           assert_jq "$OUT" '.results == []'
  run ms "{\"q\":\"$(date -u +%Y)-\"}"; assert_jq "$OUT" '.results == []'
  run ms '{"q":"prod"}';         assert_jq "$OUT" '[.results[].content] == ["deploy notes"]'
  run ms '{"q":"DECIS"}';        assert_jq "$OUT" '[.results[].content] == ["use pnpm"]'
  run ms '{"q":"zebra"}';        assert_jq "$OUT" '.results == []'
  # Lines from other writers may escape any character, and a \/ slash.
  put_lines '{"ts":"2025-01-01T00:00:00.000Z","type":"note","content":"caf\u00e9 \u0050refers \/ a\/b"}'
  run ms '{"q":"café"}';          assert_jq "$OUT" '.results[0].content == "café Prefers / a/b"'
  run ms '{"q":"prefers / a/b"}'; assert_jq "$OUT" '.results[0].content == "café Prefers / a/b"'
}

test_newest_first_and_limit() {
  local i
  for i in 1 2 3 4 5; do mw "{\"content\":\"item $i\"}" >/dev/null; done
  run ms '{"q":"item","limit":3}'
  assert_eq "$OUT" "$(jq -c '.' <<<"$OUT")" "one compact JSON line"
  assert_jq "$OUT" 'keys_unsorted == ["results", "truncated", "used_window_lines"]'
  assert_jq "$OUT" '[.results[].content] == ["item 5", "item 4", "item 3"] and .truncated == true and .used_window_lines == 20000'
  run ms '{"q":"item","limit":5}';  assert_jq "$OUT" '(.results | length) == 5 and .truncated == false'
  run ms '{"q":"ITEM","limit":10}'; assert_jq "$OUT" '(.results | length) == 5 and .truncated == false'
  run ms '{}';                      assert_jq "$OUT" '[.results[].content] == ["item 5", "item 4", "item 3", "item 2", "item 1"]'
  run ms '{"q":"","limit":1}';      assert_jq "$OUT" '[.results[].content] == ["item 5"] and .truncated == true'
}

test_window_doubles_until_limit_or_whole_file() {
  jq -n -c 'range(1; 101) | {ts: "2025-01-01T00:00:00.000Z", type: "note", content: ("line \(.)" + (if . <= 3 then " needle" else "" end))}' >"$MEMORY_FILE"
  run ms '{"q":"needle","limit":3,"window_lines":10}'
  assert_jq "$OUT" '[.results[].content] == ["line 3 needle", "line 2 needle", "line 1 needle"] and .truncated == false and .used_window_lines == 160'
  run ms '{"q":"needle","limit":2,"window_lines":10}'
  assert_jq "$OUT" '[.results[].content] == ["line 3 needle", "line 2 needle"] and .truncated == true and .used_window_lines == 160'
  run ms '{"q":"line","limit":5,"window_lines":10}'
  assert_jq "$OUT" '[.results[].content] == ["line 100", "line 99", "line 98", "line 97", "line 96"] and .truncated == true and .used_window_lines == 10'
  # A window of exactly the file's length covers it.
  run ms '{"q":"needle","limit":5,"window_lines":100}'
  assert_jq "$OUT" '(.results | length) == 3 and .truncated == false and .used_window_lines == 100'
  # One line short: line 1 is outside the window, so it takes one more doubling.
  run ms '{"q":"needle","limit":3,"window_lines":99}'
  assert_jq "$OUT" '(.results | length) == 3 and .truncated == false and .used_window_lines == 198'
  # Exactly `limit` matches, but lines before the window were never searched: truncated.
  run ms '{"q":"line 9","limit":4,"window_lines":5}'
  assert_jq "$OUT" '[.results[].content] == ["line 99", "line 98", "line 97", "line 96"] and .truncated == true and .used_window_lines == 5'
  run ms '{"q":"no such text","limit":1,"window_lines":1}'
  assert_jq "$OUT" '.results == [] and .truncated == false and .used_window_lines == 128'
}

test_invalid_write_input_is_refused_and_the_file_untouched() {
  local input field base
  mw '{"content":"keep me"}' >/dev/null
  cp "$MEMORY_FILE" "$WORK/before"
  base=$(jq -n -r '"x" * 4100')
  while IFS=$'\t' read -r field input; do
    run mw "$input"
    assert_eq "$RC" 2 "status for $input"
    assert_eq "$OUT" "" "stdout for $input"
    assert_jq "$ERR" '.error == "INVALID_INPUT" and .field == $f and (.message | startswith($f + ": "))' --arg f "$field"
    assert_eq "$(printf '%s\n' "$ERR" | wc -l)" 1 "one JSON line on stderr for $input"
    assert_file_unchanged "$WORK/before" "$MEMORY_FILE"
  done <<EOF
input	nope
input	
input	[]
input	"just a string"
input	null
input	{"content":"a"} {"content":"b"}
input	{"content":"a"
content	{}
content	{"type":"note"}
content	{"content":1}
content	{"content":null}
content	{"content":""}
content	{"content":["x"]}
type	{"content":"x","type":5}
type	{"content":"x","type":null}
type	{"content":"x","type":""}
tags	{"content":"x","tags":"a"}
tags	{"content":"x","tags":[1]}
tags	{"content":"x","tags":["a",null]}
meta	{"content":"x","meta":[]}
meta	{"content":"x","meta":"m"}
ts	{"content":"x","ts":"2020-01-01T00:00:00Z"}
extra	{"content":"x","extra":1}
a	{"content":"x","zz":1,"a":2}
input	{"content":"$base x"}
EOF
  run mw
  assert_eq "$RC" 2 "no argument"
  assert_jq "$ERR" '.field == "input"'
  run mw '{"content":"a"}' '{"content":"b"}'
  assert_eq "$RC" 2 "two arguments"
  assert_file_unchanged "$WORK/before" "$MEMORY_FILE"
  # A refused write does not create a missing file.
  rm "$MEMORY_FILE"
  run mw '{"content":""}'
  assert_eq "$RC" 2 "status"
  [ ! -e "$MEMORY_FILE" ] || fail "a refused write created the file"
}

test_line_limit_is_4095_bytes_plus_newline() {
  local base size content
  base=$(mw '{"content":"x"}' | tr -d '\n' | wc -c)
  size=$((4095 - base + 1))
  content=$(printf '%*s' "$size" '' | tr ' ' 'y')
  run mw "$(json_content "$content")"
  assert_eq "$RC" 0 "a 4095-byte line is accepted ($ERR)"
  assert_eq "$(tail -n 1 "$MEMORY_FILE" | wc -c)" 4096 "bytes on disk, newline included"
  run mw "$(json_content "${content}y")"
  assert_eq "$RC" 2 "a 4096-byte line is refused"
  assert_jq "$ERR" '.field == "input" and (.message | test("4096 bytes"))'
}

test_invalid_search_input_is_refused() {
  local input field
  mw '{"content":"keep me"}' >/dev/null
  cp "$MEMORY_FILE" "$WORK/before"
  while IFS=$'\t' read -r field input; do
    run ms "$input"
    assert_eq "$RC" 2 "status for $input"
    assert_eq "$OUT" "" "stdout for $input"
    assert_jq "$ERR" '.error == "INVALID_INPUT" and .field == $f' --arg f "$field"
  done <<EOF
input	x
input	[]
input	{"q":"a"
limit	{"limit":0}
limit	{"limit":-1}
limit	{"limit":1.5}
limit	{"limit":"5"}
limit	{"limit":1001}
limit	{"limit":null}
window_lines	{"window_lines":0}
window_lines	{"window_lines":2.5}
window_lines	{"window_lines":"10"}
window_lines	{"window_lines":1e10}
q	{"q":5}
q	{"q":null}
q	{"q":["a"]}
query	{"query":"a"}
EOF
  run ms "$(jq -n -c '{q: ("q" * 4097)}')"
  assert_eq "$RC" 2 "a q longer than 4096 bytes"
  assert_jq "$ERR" '.field == "q"'
  run ms '{"q":"a","limit":1000,"window_lines":1000000000}'
  assert_eq "$RC" 0 "the largest allowed values ($ERR)"
  assert_file_unchanged "$WORK/before" "$MEMORY_FILE"
}

test_corrupt_lines_are_skipped_reported_and_never_rewritten() {
  cp "$FIXTURES/corrupt.jsonl" "$MEMORY_FILE"
  cp "$MEMORY_FILE" "$WORK/before"
  run ms '{"q":"alpha"}'
  assert_eq "$RC" 0 "status"
  assert_jq "$OUT" '[.results[].content] == ["alpha two", "alpha one"] and .truncated == false'
  assert_jq "$ERR" '. == {warning: "CORRUPT_LINES", file: $f, count: 6, lines: [2, 3, 4, 6, 10, 13]}' --arg f "$MEMORY_FILE"
  # Lines that cannot contain q are not looked at, so they are not reported.
  run ms '{"q":"gamma"}'
  assert_jq "$OUT" '[.results[].content] == ["gamma"] and .results[0].extra == {kept: 1}'
  assert_eq "$ERR" "" "no report when no corrupt line could match"
  run ms '{"q":"","limit":100}'
  assert_jq "$OUT" '[.results[].content] == ["gamma", "café Prefers / slash", "beta", "alpha two", "alpha one"]'
  assert_jq "$ERR" '.count == 6 and .lines == [2, 3, 4, 6, 10, 13]'
  # Numbers stay right when the window starts after line 1.
  run ms '{"q":"alpha","limit":1,"window_lines":9}'
  assert_jq "$OUT" '[.results[].content] == ["alpha two"] and .truncated == true and .used_window_lines == 9'
  assert_jq "$ERR" '.count == 3 and .lines == [6, 10, 13]'
  assert_file_unchanged "$WORK/before" "$MEMORY_FILE"
  run mw '{"content":"after the damage"}'
  assert_eq "$RC" 0 "write status"
  cmp -s -n "$(wc -c <"$WORK/before")" "$WORK/before" "$MEMORY_FILE" || fail "a write changed existing bytes"
  assert_eq "$(($(wc -c <"$MEMORY_FILE") - $(wc -c <"$WORK/before")))" "$((${#OUT} + 1))" "a write only appends its line"
}

test_unterminated_last_line() {
  put_lines '{"ts":"2025-01-01T00:00:00.000Z","type":"note","content":"alpha first"}'
  printf '%s' '{"ts":"2025-01-01T00:00:01.000Z","type":"note","content":"alpha half-writ' >>"$MEMORY_FILE"
  cp "$MEMORY_FILE" "$WORK/before"
  # Possibly a write in progress: skipped without a report.
  run ms '{"q":"alpha"}'
  assert_jq "$OUT" '[.results[].content] == ["alpha first"]'
  assert_eq "$ERR" "" "no report for an unterminated last line"
  # The next write ends that line first. Then it is an ordinary corrupt line.
  run mw '{"content":"alpha after"}'
  assert_eq "$RC" 0 "status"
  cmp -s -n "$(wc -c <"$WORK/before")" "$WORK/before" "$MEMORY_FILE" || fail "existing bytes changed"
  assert_eq "$(tail -n 1 "$MEMORY_FILE")" "$OUT" "the new entry is a whole line"
  run ms '{"q":"alpha"}'
  assert_jq "$OUT" '[.results[].content] == ["alpha after", "alpha first"]'
  assert_jq "$ERR" '.count == 1 and .lines == [2]'
  # A valid last line without its newline is an entry like any other.
  : >"$MEMORY_FILE"
  printf '%s' '{"ts":"2025-01-01T00:00:00.000Z","type":"note","content":"no newline"}' >>"$MEMORY_FILE"
  run ms '{"q":"newline"}'
  assert_jq "$OUT" '[.results[].content] == ["no newline"]'
  mw '{"content":"next newline"}' >/dev/null
  run ms '{"q":"newline"}'
  assert_jq "$OUT" '[.results[].content] == ["next newline", "no newline"]'
  assert_eq "$ERR" "" "stderr"
}

test_missing_jq_is_a_clear_error() {
  local saved=$TOOLS
  mw '{"content":"keep"}' >/dev/null
  cp "$MEMORY_FILE" "$WORK/before"
  TOOLS=$WORK/bin-nojq
  run mw '{"content":"x"}'
  assert_eq "$RC" 3 "memory_write status"
  assert_jq "$ERR" '.error == "DEPENDENCY_MISSING" and .field == "jq" and (.message | test("needs jq"))'
  run ms '{"q":"x"}'
  assert_eq "$RC" 3 "memory_search status"
  assert_jq "$ERR" '.error == "DEPENDENCY_MISSING" and .field == "jq"'
  assert_eq "$OUT" "" "stdout"
  TOOLS=$saved
  assert_file_unchanged "$WORK/before" "$MEMORY_FILE"
}

test_default_file_is_codex_memory_jsonl() {
  local home=$PWD/other-home
  mkdir -p "$home/.codex"
  HOME=$home MEMORY_FILE= run mw '{"content":"in the default file"}'
  assert_eq "$RC" 0 "status ($ERR)"
  assert_jq "$(cat "$home/.codex/memory.jsonl")" '.content == "in the default file"'
  HOME=$home MEMORY_FILE= run ms '{"q":"default"}'
  assert_jq "$OUT" '(.results | length) == 1'
  # Neither function creates folders.
  HOME=$PWD/no-codex MEMORY_FILE= run mw '{"content":"x"}'
  assert_eq "$RC" 1 "status without ~/.codex"
  assert_jq "$ERR" '.error == "MEMORY_FILE_UNAVAILABLE" and (.message | test("mkdir -p"))'
  HOME=$PWD/no-codex MEMORY_FILE= run ms '{}'
  assert_eq "$RC" 1 "search status without ~/.codex"
  [ ! -e "$PWD/no-codex" ] || fail "a folder was created"
  MEMORY_FILE=$WORK run ms '{}'
  assert_eq "$RC" 1 "MEMORY_FILE is a folder"
  assert_jq "$ERR" '.error == "MEMORY_FILE_UNAVAILABLE"'
}

test_search_creates_a_missing_file() {
  run ms '{"q":"anything"}'
  assert_eq "$RC" 0 "status"
  assert_eq "$OUT" '{"results":[],"truncated":false,"used_window_lines":20000}' "empty result"
  assert_eq "$(stat -c '%a %s' "$MEMORY_FILE")" "600 0" "an empty private file"
}

test_caller_shell_is_left_alone() {
  local script=$WORK/caller.sh
  cat >"$script" <<'EOF'
set -euo pipefail
shopt -s expand_aliases
alias grep='false' tail='false'
jq() { exit 97; }
printf() { exit 96; }
IFS=,
umask 022
source "$SKILL"
memory_write '{"content":"caller test"}' >/dev/null
memory_search '{"q":"nothing matches this"}' >/dev/null
found=$(memory_search '{"q":"caller"}')
echo "found=${found:0:12} ifs=[$IFS] umask=$(umask) opts=$- var=${input-unset}${out-unset}"
EOF
  SKILL=$SKILL PATH=$TOOLS run bash "$script"
  assert_eq "$RC" 0 "the caller survives set -euo pipefail ($ERR)"
  assert_eq "$OUT" "found={\"results\":[ ifs=[,] umask=0022 opts=ehuB var=unsetunset" "caller state"
}

test_concurrent_writers_never_interleave() {
  local w
  for w in 1 2 3 4 5 6 7 8; do
    (
      local i pad
      for i in $(seq 1 20); do
        pad=$(printf '%*s' $(((w * 389 + i * 157) % 3900)) '' | tr ' ' "$(printf "\\x$((60 + w))")")
        mw "{\"content\":\"writer $w entry $i $pad\"}" >/dev/null || echo "write failed: $w $i" >>"$WORK/failures"
      done
    ) &
  done
  (
    local j
    for j in $(seq 1 10); do
      ms '{"q":"","limit":1000}' >/dev/null 2>>"$WORK/reader-stderr"
    done
  ) &
  wait
  [ ! -s "$WORK/failures" ] || fail "$(cat "$WORK/failures")"
  # A writer that sees another writer's line half-copied (it can be preempted mid-copy under load)
  # ends it with a newline that lands after it: a blank line, which readers skip. Never a broken one.
  assert_eq "$(grep -c -v '^$' "$MEMORY_FILE")" 160 "every write is one line"
  assert_eq "$(jq -R -c 'select(. != "") | fromjson? // "BROKEN"' "$MEMORY_FILE" | grep -c BROKEN)" 0 "no line is broken or interleaved"
  [ -z "${MEMORY_TEST_KEEP-}" ] || cp "$MEMORY_FILE" "$MEMORY_TEST_KEEP"
  assert_eq "$(jq -R -c 'fromjson? | select(.content | startswith("writer ")) | .content | split(" ")[1:4] | join(" ")' "$MEMORY_FILE" | sort -u | wc -l)" 160 "every line parses, once each"
  assert_eq "$(cat "$WORK/reader-stderr" 2>/dev/null)" "" "readers during the writes saw no corrupt line"
}

test_a_line_reaches_the_file_in_one_write() {
  type -P strace >/dev/null || { SKIPPED="strace is not installed"; return; }
  local base content line writes
  base=$(mw '{"content":"x"}' | tr -d '\n' | wc -c)
  content=$(printf '%*s' "$((4095 - base + 1))" '' | tr ' ' 'z')
  # stdout starts as a pipe with a small first write, like a shell whose stdout buffer is in use.
  strace -f -y -e trace=write -o "$PWD/strace.log" env PATH="$TOOLS" MEMORY_FILE="$MEMORY_FILE" SKILL="$SKILL" \
    bash -c 'source "$SKILL"; echo warm-up; memory_write "$1"' _ "$(json_content "$content")" >"$PWD/stdout" 2>&1
  line=$(tail -n 1 "$MEMORY_FILE")
  assert_eq "${#line}" 4095 "line length"
  writes=$(grep -F "<$MEMORY_FILE>" "$PWD/strace.log" | grep -o '= [0-9]*$' | tr '\n' ' ')
  assert_eq "$writes" "= 4096 " "write(2) calls on the memory file for the 4095-byte line"
}

test_rg_and_grep_give_identical_output() {
  [ -n "$HAVE_RG" ] || { SKIPPED="rg is not installed"; return; }
  [ "$TOOLS" = "$WORK/bin-grep" ] || { SKIPPED="compared once, in the grep pass"; return; }
  local input q
  cp "$FIXTURES/corrupt.jsonl" "$MEMORY_FILE"
  while IFS= read -r input; do mw "$input" >/dev/null; done < <(jq -c '.[] | {content: .}' "$FIXTURES/hostile.json")
  while IFS= read -r q; do
    for mode in grep rg; do
      PATH=$WORK/bin-$mode memory_search "$q" >"$WORK/$mode.out" 2>"$WORK/$mode.err"
    done
    cmp -s "$WORK/grep.out" "$WORK/rg.out" || fail "stdout differs for $q"
    cmp -s "$WORK/grep.err" "$WORK/rg.err" || fail "stderr differs for $q"
    [ -s "$WORK/grep.out" ] || fail "no output for $q"
  done < <(jq -c '(.[], "alpha", "", "\\u", "PREFERS", "é") | {q: ., limit: 50, window_lines: 7}' "$FIXTURES/hostile.json")
}

# ---------------------------------------------------------------------------------------- runner

modes=("$@")
if [ ${#modes[@]} -eq 0 ]; then
  modes=(grep)
  [ -n "$HAVE_RG" ] && modes+=(rg)
fi
passed=0 failed=0 n=0
for mode in "${modes[@]}"; do
  if [ "$mode" = rg ] && [ -z "$HAVE_RG" ]; then echo "ok - # SKIP rg mode: rg is not installed"; continue; fi
  for t in $(declare -F | awk '{print $3}' | grep '^test_' | grep -- "${MEMORY_TEST_ONLY:-}"); do
    n=$((n + 1))
    dir=$WORK/$mode-$t
    mkdir -p "$dir"
    result=$(
      TOOLS=$WORK/bin-$mode
      export MEMORY_FILE=$dir/memory.jsonl
      FAILURES=() SKIPPED=
      cd "$dir" || exit 1
      "$t" >/dev/null 2>"$dir/test-stderr"
      if [ -n "$SKIPPED" ]; then echo "skip: $SKIPPED"; exit 0; fi
      for f in "${FAILURES[@]}"; do printf '#   %s\n' "$f"; done
      [ ${#FAILURES[@]} -eq 0 ]
    )
    status=$?
    [ -n "${MEMORY_TEST_TIMES-}" ] && echo "# $SECONDS s"
    if [ $status -eq 0 ]; then
      passed=$((passed + 1))
      case $result in skip:*) echo "ok $n - [$mode] $t # SKIP ${result#skip: }" ;; *) echo "ok $n - [$mode] $t" ;; esac
    else
      failed=$((failed + 1))
      echo "not ok $n - [$mode] $t"
      printf '%s\n' "$result"
      [ -s "$dir/test-stderr" ] && sed 's/^/#   stderr: /' "$dir/test-stderr" | head -20
    fi
  done
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
