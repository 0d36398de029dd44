# shellcheck shell=bash disable=SC2016
# memory.sh: memory for coding agents in one append-only JSONL file, with two functions.
#
#   source scripts/memory.sh
#   memory_write '{"type":"note","content":"Prefers terse status updates.","tags":["preference"]}'
#   memory_search '{"q":"prefers","limit":5,"window_lines":20000}'
#
# The file is ${MEMORY_FILE:-~/.codex/memory.jsonl}. skills/memory/SKILL.md gives the full contract:
# fields, how q matches, what "truncated" means, the limits and the exit statuses. The TypeScript twin
# (src/skill/) follows the same rules on the same file, and tests compare the two.
#
# Exit status: 0 ok; 1 the memory file cannot be created, read or written; 2 invalid input (a JSON
# error on stderr, and the file is left untouched); 3 a required tool is missing (jq; tail, touch,
# and rg or grep).
# Needs: bash, jq (1.6 or later), tail, touch, and rg (grep when rg is missing). Nothing else.
#
# Why it is written this way:
# - Each function body runs in a subshell "( ... )". The caller's set -e/-u/pipefail, IFS, traps, umask
#   and variables stay as they were, and no variable leaks out.
# - Every external tool is called through `command`, and printf through `builtin`, so a caller's
#   alias or function named jq, grep, tail or printf is never run in its place.
# - A fresh jq process appends each line, and that line is its only output. jq's stdio buffer
#   (st_blksize, 4096 bytes on ext4, xfs, btrfs, tmpfs and APFS) holds the whole line, so the kernel
#   gets one write(2) on an O_APPEND descriptor, and concurrent writers cannot split it. Bash's builtin
#   printf would write through the shell's long-lived stdout buffer. That buffer is 1024 bytes when the
#   shell started on a terminal, so long lines would go out in several writes. flock, mkdir, mv and rm
#   are not among the allowed tools, so a lock is not possible. Instead a line is capped at 4096 bytes,
#   newline included.
# - rg/grep only pre-select lines, and they do it generously. jq then decides whether an entry matches,
#   by looking at its decoded content, tags and type, never at the raw JSON text.

if [ -z "${BASH_VERSION-}" ]; then
  printf '%s\n' '{"error":"DEPENDENCY_MISSING","field":"bash","message":"bash: memory.sh must be sourced from bash"}' >&2
  # shellcheck disable=SC2317
  return 3 2>/dev/null || exit 3
fi

# Shared jq definitions. Each program below starts with them.
_MEMORY_JQ_LIB='
def problem($field; $message):
  "E" + ({error: "INVALID_INPUT", field: $field, message: ($field + ": " + $message)} | tojson);
def parse_input:
  try {value: fromjson} catch {error: (tostring | split(" (while parsing")[0])};
def first_extra_key($allowed):
  [keys[] | select(. as $k | $allowed | index([$k]) | not)] | first;
def is_int: type == "number" and . == floor;
'

# memory_write: checks the input and builds the line. Input: the raw text of the argument.
# Output: "L" + line, or "E" + error JSON.
_MEMORY_JQ_WRITE='
def iso_now:
  now as $t | ($t | floor) as $s
  | ($s | todate | .[:-1]) + "." + ((1000 + ((($t - $s) * 1000) | floor)) | tostring | .[1:]) + "Z";
parse_input as $p
| if ($p | has("error")) then problem("input"; "is not valid JSON (" + $p.error + ")")
  else $p.value as $in
  | if ($in | type) != "object" then
      problem("input"; "must be a JSON object such as {\"type\":\"note\",\"content\":\"...\"}, got " + ($in | type))
    else ($in | first_extra_key(["type", "content", "tags", "meta"])) as $extra
    | if $extra == "ts" then problem("ts"; "is set by memory_write from the clock; remove it")
      elif $extra != null then problem($extra; "unknown field; the fields are type, content, tags and meta (put anything else in meta)")
      elif ($in | has("content") | not) then problem("content"; "is required: the text to remember")
      elif ($in.content | type) != "string" then problem("content"; "must be a string, got " + ($in.content | type))
      elif $in.content == "" then problem("content"; "must not be empty")
      elif ($in | has("type")) and ($in.type | type) != "string" then problem("type"; "must be a string, got " + ($in.type | type))
      elif ($in | has("type")) and $in.type == "" then problem("type"; "must not be empty")
      elif ($in | has("tags")) and ($in.tags | type) != "array" then problem("tags"; "must be an array of strings, got " + ($in.tags | type))
      elif ($in | has("tags")) and ([$in.tags[] | select(type != "string")] | length) > 0 then problem("tags"; "every tag must be a string")
      elif ($in | has("meta")) and ($in.meta | type) != "object" then problem("meta"; "must be an object, got " + ($in.meta | type))
      else
        ({ts: iso_now, type: (if ($in | has("type")) then $in.type else "note" end), content: $in.content}
         + (if ($in | has("tags")) then {tags: $in.tags} else {} end)
         + (if ($in | has("meta")) then {meta: $in.meta} else {} end)
         | tojson) as $line
        | ($line | utf8bytelength) as $bytes
        | if $bytes > 4095 then
            problem("input"; "the entry is \($bytes) bytes as a JSON line; the limit is 4095 (a line must fit one atomic append): shorten content or meta")
          else "L" + $line end
      end
    end
  end
'

# memory_search: checks the query. Output: "A<limit> <window>", the pre-filter fragment, and the
# lower-cased q as JSON, one per line. Otherwise "E" + error JSON.
# The fragment is the longest run of q that JSON always writes as itself. It has no quote, backslash,
# slash or control character, and those could be escaped in the raw line. Any other character is
# either written as itself or as \uXXXX, and a line holding "\u" is always a candidate.
_MEMORY_JQ_QUERY='
def fragment:
  reduce (explode[], -1) as $c ({best: [], cur: []};
    if $c < 32 or $c == 34 or $c == 47 or $c == 92 then
      (if (.cur | length) > (.best | length) then .best = .cur else . end) | .cur = []
    else .cur += [$c] end)
  | .best | implode;
parse_input as $p
| if ($p | has("error")) then problem("input"; "is not valid JSON (" + $p.error + ")")
  else $p.value as $in
  | if ($in | type) != "object" then
      problem("input"; "must be a JSON object such as {\"q\":\"...\",\"limit\":5}, got " + ($in | type))
    else ($in | first_extra_key(["q", "limit", "window_lines"])) as $extra
    | if $extra != null then problem($extra; "unknown field; the fields are q, limit and window_lines")
      elif ($in | has("q")) and ($in.q | type) != "string" then problem("q"; "must be a string, got " + ($in.q | type))
      elif ($in | has("q")) and ($in.q | utf8bytelength) > 4096 then problem("q"; "must be at most 4096 bytes")
      elif ($in | has("limit")) and (($in.limit | is_int | not) or $in.limit < 1 or $in.limit > 1000) then
        problem("limit"; "must be an integer from 1 to 1000")
      elif ($in | has("window_lines")) and (($in.window_lines | is_int | not) or $in.window_lines < 1 or $in.window_lines > 1000000000) then
        problem("window_lines"; "must be an integer from 1 to 1000000000")
      else
        ((if ($in | has("q")) then $in.q else "" end) | ascii_downcase) as $ql
        | "A\(if ($in | has("limit")) then $in.limit else 10 end) \(if ($in | has("window_lines")) then $in.window_lines else 20000 end)\n"
          + ($ql | fragment) + "\n" + ($ql | tojson)
      end
    end
  end
'

# memory_search: scans one window. Input: "k:line" rows from rg/grep -n, covering the last W+1 lines of
# the file followed by the sentinel. That extra line tells whether the window of W lines covered the
# whole file, in the same read. Output: "<matches> <1 if the window covered the file, else 0>", the
# corrupt-line report (or null), and the result JSON.
_MEMORY_JQ_SCAN='
def blank: explode | all(. == 32 or . == 9 or . == 13);
def has_text($t): ascii_downcase | index($t) != null;
def candidate: $fl == "" or (ascii_downcase | (index($fl) != null or index("\\u") != null));
def entry_ok:
  type == "object" and (.ts | type) == "string" and (.type | type) == "string" and (.content | type) == "string"
  and ((has("tags") | not) or ((.tags | type) == "array" and all(.tags[]; type == "string")))
  and ((has("meta") | not) or (.meta | type) == "object");
def hit: $ql == "" or (.content | has_text($ql)) or (.type | has_text($ql)) or any(.tags[]?; has_text($ql));
def add_hit($e): .n += 1 | .m = ((.m + [$e]) | .[-$limit:]);
def add_bad($k): .badn += 1 | if (.bad | length) < 100 then .bad += [$k] else . end;
reduce (inputs | index(":") as $i | [(.[:$i] | tonumber), .[$i + 1:]]) as [$k, $row]
  ({n: 0, m: [], badn: 0, bad: [], read: 0, first: null};
   if $row == $s then .read = $k - 1
   else
     ($row | endswith($s)) as $unterminated
     | (if $unterminated then ($row | .[:length - ($s | length)]) else $row end) as $raw
     | (if $unterminated then .read = $k else . end)
     | if ($raw | candidate | not) or ($raw | blank) then .
       else (try ($raw | fromjson) catch null) as $e
         | (if ($e | entry_ok) then (if ($e | hit) then "hit" else null end)
            elif $unterminated then null
            else "bad" end) as $verdict
         | if $verdict == null then .
           elif $k == 1 then .first = {verdict: $verdict, entry: $e}
           elif $verdict == "hit" then add_hit($e)
           else add_bad($k) end
       end
   end)
| (.read <= $window) as $covered
| if $covered and .first != null then
    if .first.verdict == "hit" then
      .first.entry as $e | .n += 1 | .m = (([$e] + .m) | .[-$limit:])
    else .badn += 1 | .bad = ([1] + .bad | .[:100]) end
  else . end
| "\(.n) \(if $covered then 1 else 0 end)",
  (if .badn > 0 then ({count: .badn, lines: .bad, read: .read, covered: $covered} | tojson) else "null" end),
  ({results: (.m | reverse), truncated: (($covered | not) or .n > $limit), used_window_lines: $window} | tojson)
'

# Resets the shell state that the caller may have changed. This runs inside the function's own
# subshell, so the caller keeps its settings. Then checks that the needed tools are on PATH.
_memory_prepare() {
  set +e +u +E +T
  set +o pipefail 2>/dev/null
  trap - ERR DEBUG RETURN 2>/dev/null
  IFS=$' \t\n'
  export LC_ALL=C
  unset GREP_OPTIONS GREP_COLOR GREP_COLORS RIPGREP_CONFIG_PATH
  umask 077
  if ! command -v jq >/dev/null 2>&1; then
    builtin printf '%s\n' '{"error":"DEPENDENCY_MISSING","field":"jq","message":"jq: memory.sh needs jq 1.6 or later and it is not on PATH; install it (apt-get install jq, brew install jq) and retry"}' >&2
    return 3
  fi
  local tool
  for tool in tail touch; do
    if ! command -v "$tool" >/dev/null 2>&1; then
      _memory_error 3 DEPENDENCY_MISSING "$tool" "$tool: memory.sh needs it and it is not on PATH"
      return 3
    fi
  done
  if ! command -v rg >/dev/null 2>&1 && ! command -v grep >/dev/null 2>&1; then
    _memory_error 3 DEPENDENCY_MISSING grep "grep: memory.sh needs rg or grep and neither is on PATH"
    return 3
  fi
}

# _memory_error STATUS CODE FIELD MESSAGE: prints the error as one JSON line on stderr and returns STATUS.
_memory_error() {
  command jq -n -c -M --arg e "$2" --arg f "$3" --arg m "$4" '{error: $e, field: $f, message: $m}' >&2
  return "$1"
}

# rg when it is there, else grep, with the options both share. LC_ALL=C makes grep -i fold ASCII only.
_memory_grep() {
  if command -v rg >/dev/null 2>&1; then
    command rg --no-config "$@"
  else
    command grep "$@"
  fi
}

# Reads the one JSON argument, or stdin when the argument is "-". Prints it.
_memory_input() {
  if [ "$#" -ne 2 ]; then
    _memory_error 2 INVALID_INPUT input "input: $1 takes exactly one argument: a JSON object, or - to read it from stdin"
    return
  fi
  if [ "$2" = - ]; then
    command tail -c +1
  else
    builtin printf '%s' "$2"
  fi
}

# Prints the path of the memory file. Returns 1 when it is a folder, or when its folder is missing.
_memory_file() {
  local file dir
  file=${MEMORY_FILE:-~/.codex/memory.jsonl}
  if [ -d "$file" ]; then
    _memory_error 1 MEMORY_FILE_UNAVAILABLE MEMORY_FILE "MEMORY_FILE: $file is a folder; point MEMORY_FILE at a file"
    return
  fi
  if [ ! -e "$file" ]; then
    case $file in
      */*) dir=${file%/*}; dir=${dir:-/} ;;
      *) dir=. ;;
    esac
    if [ ! -d "$dir" ]; then
      _memory_error 1 MEMORY_FILE_UNAVAILABLE MEMORY_FILE "MEMORY_FILE: the folder $dir does not exist; create it (mkdir -p $dir) or set MEMORY_FILE"
      return
    fi
  fi
  builtin printf '%s' "$file"
}

_memory_ends_with_newline() {
  local last
  { last=$(command tail -c 1 -- "$1"; builtin printf x); } 2>/dev/null
  [ "$last" = $'\nx' ]
}

# memory_write JSON: appends one entry {ts, type, content, tags?, meta?} and prints it.
memory_write() (
  _memory_prepare || exit
  input=$(_memory_input memory_write "$@") || exit
  out=$(builtin printf '%s' "$input" | command jq -R -s -r -M "$_MEMORY_JQ_LIB$_MEMORY_JQ_WRITE") || {
    _memory_error 1 INTERNAL jq "jq: failed to check the input (is it jq 1.6 or later?)"
    exit
  }
  case $out in
    E*) builtin printf '%s\n' "${out#E}" >&2; exit 2 ;;
    L*) line=${out#L} ;;
    *) _memory_error 1 INTERNAL jq "jq: unexpected output while checking the input"; exit ;;
  esac
  file=$(_memory_file) || exit
  # If the last line lacks its newline (an interrupted write, or a hand edit), end it first. The new
  # entry then starts on a line of its own, and the old text is left as it was. A reader can see part
  # of another writer's line while the kernel copies it, so look twice before deciding: the second
  # look comes a process start later, long after any write in flight has landed.
  if [ -s "$file" ] && ! _memory_ends_with_newline "$file" && ! _memory_ends_with_newline "$file"; then
    builtin printf '\n' >>"$file" || { _memory_error 1 MEMORY_FILE_UNAVAILABLE MEMORY_FILE "MEMORY_FILE: cannot append to $file"; exit; }
  fi
  command jq -n -j -M --arg line "$line" '$line + "\n"' >>"$file" 2>/dev/null || {
    _memory_error 1 MEMORY_FILE_UNAVAILABLE MEMORY_FILE "MEMORY_FILE: cannot append to $file"
    exit
  }
  builtin printf '%s\n' "$line"
)

# memory_search JSON: prints {"results":[...],"truncated":bool,"used_window_lines":N}, newest first.
memory_search() (
  _memory_prepare || exit
  input=$(_memory_input memory_search "$@") || exit
  out=$(builtin printf '%s' "$input" | command jq -R -s -r -M "$_MEMORY_JQ_LIB$_MEMORY_JQ_QUERY") || {
    _memory_error 1 INTERNAL jq "jq: failed to check the query (is it jq 1.6 or later?)"
    exit
  }
  case $out in
    E*) builtin printf '%s\n' "${out#E}" >&2; exit 2 ;;
    A*) ;;
    *) _memory_error 1 INTERNAL jq "jq: unexpected output while checking the query"; exit ;;
  esac
  header=${out%%$'\n'*}; rest=${out#*$'\n'}
  fragment=${rest%%$'\n'*}; q_json=${rest#*$'\n'}
  header=${header#A}; limit=${header% *}; window=${header#* }

  file=$(_memory_file) || exit
  if [ ! -e "$file" ]; then
    command touch -- "$file" 2>/dev/null || { _memory_error 1 MEMORY_FILE_UNAVAILABLE MEMORY_FILE "MEMORY_FILE: cannot create $file"; exit; }
  fi
  if [ ! -r "$file" ]; then
    _memory_error 1 MEMORY_FILE_UNAVAILABLE MEMORY_FILE "MEMORY_FILE: cannot read $file"
    exit
  fi

  # The sentinel ends the stream. Alone on its line, it says the file ended with a newline. Glued to
  # the last line, it marks that line as unterminated: possibly a write still in progress.
  sentinel="memory.sh:end-of-window:$$:$RANDOM$RANDOM$RANDOM"
  if [ -n "$fragment" ]; then
    patterns=(-e "$fragment" -e '\u' -e "$sentinel")
  else
    patterns=(-e '')
  fi
  while :; do
    out=$( { command tail -n "$((window + 1))" -- "$file"; builtin printf '%s\n' "$sentinel"; } \
      | _memory_grep -a -n -F -i "${patterns[@]}" - \
      | command jq -R -n -r -M --arg s "$sentinel" --arg fl "$fragment" --argjson ql "$q_json" \
          --argjson limit "$limit" --argjson window "$window" "$_MEMORY_JQ_SCAN") || {
      _memory_error 1 INTERNAL jq "jq: failed while searching $file"
      exit
    }
    status=${out%%$'\n'*}; rest=${out#*$'\n'}
    bad=${rest%%$'\n'*}; result=${rest#*$'\n'}
    count=${status% *}; covered=${status#* }
    if [ "$count" -ge "$limit" ] || [ "$covered" = 1 ]; then break; fi
    window=$((window * 2))
  done

  if [ "$bad" != null ]; then
    # Report corrupt lines by their line number in the file. When the window did not start at the
    # first line, that needs the total line count, which costs one pass over the file.
    total=0
    [ "$covered" = 1 ] || total=$(_memory_grep -a -c -e '' - <"$file")
    command jq -n -c -M --argjson b "$bad" --argjson total "${total:-0}" --arg file "$file" '
      (if $b.covered then 0 else $total - $b.read end) as $offset
      | {warning: "CORRUPT_LINES", file: $file, count: $b.count, lines: [$b.lines[] + $offset]}' >&2
  fi
  builtin printf '%s\n' "$result"
)
