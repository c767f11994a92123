# The storage torture test's python3 helper (started once by `storage-torture`; see Driver.swift).
#
# Reads one command a line on stdin (fields separated by tabs, the first a request number), and
# answers on stdout, the first line of each answer starting with the request number and a space:
#   read PATH                   -> "ok N" and N lines "KEYHEX<tab>CODE", or "error MESSAGE"
#   init PATH FORMAT FILL       -> a new file (xml or binary) with FILL keys fill-000… -> "done"
#   write PATH FORMAT KEYHEX=CODE…
#                               -> a new file (xml or binary) holding exactly those values
#   replace PATH KEYHEX CODE    -> plistlib load, change, write a temporary file, rename over
#   inplace PATH LOCK KEYHEX CODE SLOW PAUSE
#                               -> rewrite the same file in place (open, write, PAUSE ms, then
#                                  truncate: a shorter text leaves the old one's tail after
#                                  </plist> meanwhile; with a PAUSE, "NUMBER~ written" is printed
#                                  before it, while the command runs); LOCK 1
#                                  takes the suite's lock as ObservableDefaults does (flock of
#                                  .NAME.lock, checked to still be at its path, removed after);
#                                  SLOW 1 empties the file and closes it ("NUMBER~ emptied"),
#                                  leaves it empty 0.7 s (longer than a reader's half-written
#                                  retries), then writes it in 12 pieces 20 ms apart
#   truncwrite PATH KEYHEX CODE -> open with truncation, then write (as `cat new > file`)
#   shift PATH KEYHEX           -> in place, in an XML file: the string entry before KEYHEX's
#                                  grows by "xx" and two bytes of white space after end tags
#                                  after it go: same size, KEYHEX's entry two bytes later. Answers
#                                  "done KEYHEX CODE" naming the entry changed, or "done unchanged"
# CODE "-" removes the key. Every change answers "done" or "error MESSAGE". Values travel in the
# exact text form of Tests/StorageTorture/ValueCode.swift.
import fcntl
import os
import plistlib
import re
import sys
import time


def encode(value):
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, int):
        return "i%d" % value
    if isinstance(value, str):
        if len(value) > 64 and value == value[0] * len(value):
            return "u%dx%s" % (len(value), value[0].encode("utf-8", "surrogatepass").hex())
        return "s" + value.encode("utf-8", "surrogatepass").hex()
    if isinstance(value, bytes):
        if len(value) > 64 and value == value[:1] * len(value):
            return "z%dx%s" % (len(value), value[:1].hex())
        return "d" + value.hex()
    if isinstance(value, list):
        return "[" + ",".join(encode(item) for item in value) + "]"
    if isinstance(value, dict):
        entries = sorted((key.encode("utf-8", "surrogatepass").hex(), encode(item))
                         for key, item in value.items())
        return "{" + ",".join("k%s=%s" % entry for entry in entries) + "}"
    if isinstance(value, float):
        return "r" + repr(value)
    return "?" + type(value).__name__


def decode(code):
    value, rest = parse(code)
    if rest:
        raise ValueError("trailing text in code")
    return value


def token_end(code):
    ends = [i for i in (code.find(","), code.find("]"), code.find("}")) if i >= 0]
    return min(ends) if ends else len(code)


def parse(code):
    mark = code[0]
    if mark == "[":
        items, rest = [], code[1:]
        while not rest.startswith("]"):
            item, rest = parse(rest)
            items.append(item)
            rest = rest[1:] if rest.startswith(",") else rest
        return items, rest[1:]
    if mark == "{":
        entries, rest = {}, code[1:]
        while not rest.startswith("}"):
            equals = rest.index("=")
            key = bytes.fromhex(rest[1:equals]).decode("utf-8")
            entries[key], rest = parse(rest[equals + 1:])
            rest = rest[1:] if rest.startswith(",") else rest
        return entries, rest[1:]
    end = token_end(code)
    body, rest = code[1:end], code[end:]
    if mark == "s":
        return bytes.fromhex(body).decode("utf-8"), rest
    if mark == "u":
        count, scalar = body.split("x")
        return bytes.fromhex(scalar).decode("utf-8") * int(count), rest
    if mark == "i":
        return int(body), rest
    if mark in "tf":
        return mark == "t", rest
    if mark == "d":
        return bytes.fromhex(body), rest
    if mark == "z":
        count, byte = body.split("x")
        return bytes.fromhex(byte) * int(count), rest
    raise ValueError("bad code " + code[:20])


def load(path):
    """The file's values and form. In XML a raw carriage return inside the root element reads
    as a carriage return, as CoreFoundation (and so our reader) reads it: expat, under plistlib,
    would turn it into a line feed. Outside the root a reference is not allowed, and no value
    lives there."""
    with open(path, "rb") as stream:
        data = stream.read()
    if data.startswith(b"bplist"):
        return plistlib.loads(data), plistlib.FMT_BINARY
    start, end = data.find(b"<plist"), data.rfind(b"</plist>")
    if 0 <= start < end:
        data = data[:start] + data[start:end].replace(b"\r", b"&#13;") + data[end:]
    return plistlib.loads(data), plistlib.FMT_XML


MARK = "\ue000"  # stands for a carriage return while plistlib writes XML


def marked(value):
    if isinstance(value, str):
        return value.replace("\r", MARK)
    if isinstance(value, list):
        return [marked(item) for item in value]
    if isinstance(value, dict):
        return {key: marked(item) for key, item in value.items()}
    return value


def dumps(values, form):
    """plistlib's bytes; in XML each carriage return is the reference &#13;, as a correct writer
    does (plistlib turns it into a line feed, which every XML reader would read back)."""
    if form != plistlib.FMT_XML:
        return plistlib.dumps(values, fmt=form)
    return plistlib.dumps(marked(values), fmt=form).replace(MARK.encode("utf-8"), b"&#13;")


def changed(path, keyhex, code):
    values, form = load(path)
    key = bytes.fromhex(keyhex).decode("utf-8")
    if code == "-":
        values.pop(key, None)
    else:
        values[key] = decode(code)
    return dumps(values, form)


def lock(path):
    folder, name = os.path.split(path)
    lock_path = os.path.join(folder, "." + name + ".lock")
    while True:
        descriptor = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        try:
            at_path = os.lstat(lock_path)
            held = os.fstat(descriptor)
            if (at_path.st_dev, at_path.st_ino) == (held.st_dev, held.st_ino):
                return descriptor, lock_path
        except FileNotFoundError:
            pass
        os.close(descriptor)


def unlock(held):
    descriptor, lock_path = held
    os.unlink(lock_path)
    os.close(descriptor)


def write_in_place(path, data, slow, pause):
    if slow:
        # Emptied and closed (readers are told), left empty, then written piece by piece.
        os.close(os.open(path, os.O_WRONLY | os.O_TRUNC))
        progress("emptied")
        time.sleep(0.7)
    descriptor = os.open(path, os.O_WRONLY)
    try:
        pieces = 12 if slow else 1
        size = (len(data) + pieces - 1) // pieces
        for start in range(0, max(len(data), 1), max(size, 1)):
            if slow:
                time.sleep(0.02)
            os.pwrite(descriptor, data[start:start + size], start)
        if pause:
            progress("written")
            time.sleep(pause)
        os.ftruncate(descriptor, len(data))
    finally:
        os.close(descriptor)


def shift(path, keyhex):
    with open(path, "rb") as stream:
        text = stream.read()
    key = bytes.fromhex(keyhex)
    entries = list(re.finditer(rb"<key>([^<]*)</key>\s*<string>([^<]*)</string>", text))
    places = [index for index, entry in enumerate(entries) if entry.group(1) == key]
    if not places or places[0] == 0:
        return "done unchanged"
    before, entry = entries[places[0] - 1], entries[places[0]]
    # Two bytes of white space between tags after the key's entry go (after an end tag: white
    # space after a start tag may be a string's own, as in <string> leading</string>)...
    after = bytearray(text[entry.end():])
    gaps = [match.start(1) for match in re.finditer(rb"</[a-z]+>(\s)", bytes(after))][:2]
    if len(gaps) < 2:
        return "done unchanged"
    for gap in reversed(gaps):
        del after[gap]
    # ...and the string before it grows by two: same size, the key's entry two bytes later. A
    # string of one repeated letter stays one (a 2 MB value then still travels as a few bytes).
    text_before = before.group(2)
    letter = text_before[:1] if text_before[:1].isalnum() else b"x"
    grown = text_before + letter * 2
    edited = (text[:before.start(2)] + grown + text[before.end(2):entry.end()] + bytes(after))
    assert len(edited) == len(text)
    descriptor = os.open(path, os.O_WRONLY)
    try:
        os.pwrite(descriptor, edited, 0)
    finally:
        os.close(descriptor)
    # The value as readers read it (the text may hold references such as &#13;).
    key_before = before.group(1).decode("utf-8")
    return "done %s %s" % (before.group(1).hex(), encode(load(path)[0][key_before]))


def run(fields):
    command, path = fields[0], fields[1]
    if command == "read":
        values, _ = load(path)
        if not isinstance(values, dict):
            return "error the top level is not a dictionary"
        lines = ["%s\t%s" % (key.encode("utf-8", "surrogatepass").hex(), encode(value))
                 for key, value in values.items()]
        return "\n".join(["ok %d" % len(lines)] + lines)
    if command == "init":
        form = plistlib.FMT_BINARY if fields[2] == "binary" else plistlib.FMT_XML
        values = {"fill-%03d" % index: "filler %d" % index for index in range(int(fields[3]))}
        with open(path, "wb") as stream:
            stream.write(dumps(values, form))
        return "done"
    if command == "write":
        form = plistlib.FMT_BINARY if fields[2] == "binary" else plistlib.FMT_XML
        values = {}
        for entry in fields[3:]:
            keyhex, code = entry.split("=", 1)
            values[bytes.fromhex(keyhex).decode("utf-8")] = decode(code)
        with open(path, "wb") as stream:
            stream.write(dumps(values, form))
        return "done"
    if command == "replace":
        data = changed(path, fields[2], fields[3])
        temporary = path + ".helper-tmp"
        with open(temporary, "wb") as stream:
            stream.write(data)
        os.rename(temporary, path)
        return "done"
    if command == "inplace":
        held = lock(path) if fields[2] == "1" else None
        try:
            write_in_place(path, changed(path, fields[3], fields[4]), fields[5] == "1",
                           int(fields[6]) / 1000)
        finally:
            if held:
                unlock(held)
        return "done"
    if command == "truncwrite":
        data = changed(path, fields[2], fields[3])
        open(path, "wb").close()  # an empty file, closed: readers are told of it
        with open(path, "wb") as stream:
            stream.write(data)
        return "done"
    if command == "shift":
        return shift(path, fields[2])
    return "error unknown command " + command


def progress(word):
    """Says how far the running command got (`NUMBER~ WORD`), before its answer."""
    sys.stdout.write("%s~ %s\n" % (number, word))
    sys.stdout.flush()


for line in sys.stdin:
    number, _, command = line.rstrip("\n").partition("\t")
    try:
        answer = run(command.split("\t"))
    except Exception as failure:  # every failure is an answer: the driver decides
        answer = "error %s: %s" % (type(failure).__name__, str(failure).replace("\n", " ")[:300])
    sys.stdout.write(number + " " + answer + "\n")
    sys.stdout.flush()
