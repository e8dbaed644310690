"""The C entry points are declared once, in python/native/include/sketchprep_native.h: every
declaration there has a Swift `@_cdecl` function with as many parameters, and the ctypes table of
the installed package (`sketchprep._native.SIGNATURES`) gives each the header's types in the
header's order, with nothing declared on one side only (but the launcher's entry point, which only
python/launcher/sketchprep.c calls)."""
import ctypes
import pathlib
import re

from sketchprep import _native

NATIVE = pathlib.Path(__file__).resolve().parents[3] / "python" / "native"
HEADER = NATIVE / "include" / "sketchprep_native.h"

# C type → the ctypes type the table must use: strings as char pointers, every other pointer as void*.
C_TYPES = {"void": None, "int64_t": ctypes.c_int64, "int32_t": ctypes.c_int32, "double": ctypes.c_double,
           "const char *": ctypes.c_char_p}


def ctype(declaration):
    """The ctypes type of a C parameter or result declaration (its name dropped)."""
    text = re.sub(r"\s+", " ", declaration).strip()
    text = re.sub(r"\s*\*\s*", " *", text)
    if "*" in text:
        base = text[:text.rindex("*") + 1].replace(" *", " *")
        return ctypes.c_char_p if base.startswith("const char *") else ctypes.c_void_p
    words = text.split(" ")
    return C_TYPES[words[0] if len(words) == 1 or words[0] in C_TYPES else " ".join(words[:-1])]


def header_declarations():
    """name → (result type, [parameter types]) of every function the header declares."""
    text = re.sub(r"/\*.*?\*/", "", HEADER.read_text(), flags=re.S)
    text = "\n".join(line for line in text.splitlines() if not line.startswith(("#", "typedef")))
    declarations = {}
    for result, name, parameters in re.findall(r"([\w\s\*]+?)\s*\b(sketchprep_\w+)\s*\(([^)]*)\)\s*;", text):
        parameters = [] if parameters.strip() in ("", "void") else parameters.split(",")
        pointer = result.strip().endswith("*") or name.startswith("*")
        declarations[name] = (ctypes.c_char_p if result.strip() == "const char *" else ctypes.c_void_p if pointer
                              else C_TYPES[result.strip()], [ctype(parameter) for parameter in parameters])
    return declarations


def swift_parameter_counts():
    """`@_cdecl` name → number of parameters of the Swift function under it."""
    counts = {}
    for source in NATIVE.glob("*.swift"):
        for name, parameters in re.findall(r'@_cdecl\("(\w+)"\)\s*public func \w+\((.*?)\)\s*(?:->|\{)', source.read_text(), re.S):
            counts[name] = len(re.findall(r"(?:^|,)\s*_ \w+:", parameters))
    return counts


def test_every_header_declaration_has_a_cdecl_function_with_as_many_parameters():
    declared = header_declarations()
    swift = swift_parameter_counts()
    assert sorted(declared) == sorted(swift)
    assert {name: len(parameters) for name, (_, parameters) in declared.items()} == swift


# The entry point of the wheel's `sketchprep` launcher (python/launcher/sketchprep.c), which Python never calls.
LAUNCHER_ENTRY_POINTS = {"sketchprep_cli_main"}


def test_the_ctypes_table_is_the_headers():
    declared = {name: types for name, types in header_declarations().items() if name not in LAUNCHER_ENTRY_POINTS}
    assert sorted(_native.SIGNATURES) == sorted(declared)
    for name, (result, parameters) in declared.items():
        table_result, table_parameters = _native.SIGNATURES[name]
        assert table_result is result, name
        assert list(table_parameters) == parameters, name
