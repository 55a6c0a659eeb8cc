"""A student's function as data a fresh interpreter can re-create: its compiled code, and what it
refers to (other functions of the notebook, modules it imported, plain data).

Why: a code question's function is graded in an interpreter that has neither lecturekit nor
networkx (:mod:`.callee`), so the library cannot answer for the student. The function was
defined in the notebook, where lecturekit is there for exploring; what crosses over is a
*recipe*: the function's code object (``marshal``: both sides are the same interpreter), the
globals its code loads (found with ``dis``, so an attribute ``graph.succs`` is not mistaken for a
global ``succs``), its defaults and its closure, each of them

* another function of the notebook (recursively; mutual recursion is fine),
* a module or a module's function or class (``import math``, ``from fractions import Fraction``),
  recorded by name and imported again over there (lecturekit is not there: the call says so),
* ``functools.lru_cache``/``cache`` around a notebook function,
* or plain data (:func:`lecturekit.grading.protocol.encode`: ints, lists, dicts, Fractions...);

anything else (a lecturekit graph the function reads from the notebook, an object of a class
defined in the notebook) makes the function unusable there, with a one-line reason. Recipes are
built where the student's code ran (the grading sandbox, or the student's own kernel for
``grader.check``), so nothing here is trusted: a forged recipe only runs student code in the
library-free interpreter, which is where student code runs anyway.

Standard library only (with :mod:`.protocol`): :mod:`.callee` imports :func:`load` with neither
lecturekit nor site-packages on the path.
"""

from __future__ import annotations

import base64
import builtins
import dis
import functools
import importlib
import marshal
import types

try:
    from .protocol import Unencodable, decode, encode
except ImportError:  # run by callee.py as a plain script beside protocol.py
    from protocol import Unencodable, decode, encode  # type: ignore[no-redef]

_CACHE = type(functools.lru_cache()(lambda: None))


def N_(message: str) -> str:
    """Marks a message for lecturekit's catalog. This module runs where lecturekit is not (the
    graded function's interpreter), so its text is English; :mod:`.messages` shows it in the
    language spoken, by these templates."""
    return message


USES = N_(
    "{owner} uses {name} ({what}): a graded function must be your own, working on the plain "
    "data it is given with the standard library"
)
CANNOT_IMPORT = N_(
    "{owner} uses {module}, which graded functions cannot import: they run with the standard "
    "library only (and what the question allows), so the function must be your own"
)
NOT_DEFINED = N_("{name} is not defined")
NOT_A_FUNCTION = N_("{name} is a {type}, not a function")
CANNOT_BE_GRADED = N_("{name} cannot be graded ({error})")
CANNOT_BE_GRADED_AT_ALL = N_("{name} cannot be graded")
A_DEFAULT = N_("a default of {function}")
A_CLASS = N_("the class {name} of the notebook")
FROM_NOTEBOOK = N_("a {type} from the notebook")
A_THING = N_("a {type}")
#: every template above, for :mod:`.messages`
MESSAGES = (
    USES,
    CANNOT_IMPORT,
    NOT_DEFINED,
    NOT_A_FUNCTION,
    CANNOT_BE_GRADED,
    CANNOT_BE_GRADED_AT_ALL,
    A_DEFAULT,
    A_CLASS,
    FROM_NOTEBOOK,
    A_THING,
)


class NotPortable(Exception):
    """The function cannot run without the notebook (the message says what it refers to)."""


def _global_names(code: types.CodeType) -> list[str]:
    """Names the code (and the code nested in it) loads or stores as globals."""
    found: list[str] = []
    for ins in dis.get_instructions(code):
        if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME", "STORE_GLOBAL", "DELETE_GLOBAL"):
            name = ins.argval
            if isinstance(name, str) and name not in found:
                found.append(name)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found.extend(n for n in _global_names(const) if n not in found)
    return found


def _describe(value) -> str:
    kind = type(value)
    module = getattr(kind, "__module__", "") or ""
    where = "" if module in ("builtins", "__main__") else f"{module}."
    return f"{where}{kind.__qualname__}"


class _Builder:
    def __init__(self, ns: dict, owner: str):
        self.ns, self.owner = ns, owner
        self.functions: dict[str, dict] = {}
        self.keys: dict[int, str] = {}
        self.globals: dict[str, dict] = {}

    def function(self, fn: types.FunctionType) -> dict:
        key = self.keys.get(id(fn))
        if key is not None:
            return {"kind": "ref", "key": key}
        key = f"f{len(self.keys)}"
        self.keys[id(fn)] = key
        entry: dict = {
            "code": base64.b64encode(marshal.dumps(fn.__code__)).decode(),
            "name": fn.__name__,
            "qualname": fn.__qualname__,
        }
        self.functions[key] = entry
        where = fn.__qualname__
        entry["defaults"] = (
            None
            if fn.__defaults__ is None
            else [self.value(v, A_DEFAULT.format(function=where)) for v in fn.__defaults__]
        )
        default = A_DEFAULT.format(function=where)
        entry["kwdefaults"] = {
            k: self.value(v, default) for k, v in (fn.__kwdefaults__ or {}).items()
        }
        cells = []
        for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or (), strict=False):
            try:
                content = cell.cell_contents
            except ValueError:  # an empty cell (a name assigned later in the enclosing function)
                cells.append(None)
                continue
            cells.append(self.value(content, name))
        entry["closure"] = cells
        for name in _global_names(fn.__code__):
            if name in self.globals:
                continue
            if name not in fn.__globals__:
                continue  # a builtin, or not defined yet: the call says NameError as usual
            self.globals[name] = {"kind": "pending"}
            self.globals[name] = self.value(fn.__globals__[name], name)
        return {"kind": "ref", "key": key}

    def value(self, value, name: str) -> dict:
        """The entry for ``value``. A function is carried as code only if it was defined in the
        notebook (its globals are the notebook's namespace); any other function, found by name,
        in a closure or as a default, is imported by name over there, so lecturekit's or
        networkx's code never comes along with a student's function."""
        if isinstance(value, types.ModuleType):
            return {"kind": "import", "module": value.__name__, "attr": None}
        if isinstance(value, types.FunctionType):
            if value.__globals__ is self.ns:
                return self.function(value)
            return self._imported(value, name)
        if isinstance(value, _CACHE) and isinstance(
            getattr(value, "__wrapped__", None), types.FunctionType
        ):
            params = value.cache_parameters()
            return {
                "kind": "cache",
                "maxsize": params.get("maxsize"),
                "typed": bool(params.get("typed")),
                "wrapped": self.value(value.__wrapped__, name),
            }
        if isinstance(value, type | types.BuiltinFunctionType):
            if getattr(value, "__module__", None) == "__main__":
                return _unusable(self.owner, name, A_CLASS.format(name=value.__qualname__))
            return self._imported(value, name)
        try:
            return {"kind": "value", "data": encode(value)}
        except Unencodable:
            return _unusable(self.owner, name, FROM_NOTEBOOK.format(type=_describe(value)))

    def _imported(self, value, name: str) -> dict:
        module = getattr(value, "__module__", None)
        qualname = getattr(value, "__qualname__", None)
        if not module or not qualname or "<" in qualname:
            return _unusable(self.owner, name, A_THING.format(type=_describe(value)))
        return {"kind": "import", "module": module, "attr": qualname}


def _unusable(owner: str, name: str, what: str) -> dict:
    return {
        "kind": "unusable",
        "message": USES.format(owner=owner, name=name, what=what),
    }


def recipe(ns: dict, name: str) -> dict:
    """The recipe of the function ``ns[name]``: ``{"root": entry, "functions": {...},
    "globals": {...}}``, or ``{"error": message}`` if it is not a function of the notebook."""
    fn = ns.get(name)
    if isinstance(fn, _CACHE) and isinstance(getattr(fn, "__wrapped__", None), types.FunctionType):
        pass
    elif not isinstance(fn, types.FunctionType):
        if name not in ns:
            return {"error": NOT_DEFINED.format(name=name)}
        return {"error": NOT_A_FUNCTION.format(name=name, type=_describe(fn))}
    elif fn.__globals__ is not ns:  # imported by name over there: says which library it needs
        return {"root": _Builder(ns, name)._imported(fn, name), "functions": {}, "globals": {}}
    builder = _Builder(ns, name)
    try:
        root = builder.value(fn, name)
    except (ValueError, TypeError, RecursionError) as exc:  # marshal of an odd code object
        return {"error": CANNOT_BE_GRADED.format(name=name, error=type(exc).__name__)}
    return {"root": root, "functions": builder.functions, "globals": builder.globals}


# -- the other side: re-create the function ---------------------------------------------------
def _import(module: str, attr: str | None, owner: str):
    try:
        value = importlib.import_module(module)
    except ImportError:
        top = module.split(".")[0]
        raise NotPortable(CANNOT_IMPORT.format(owner=owner, module=top)) from None
    for part in (attr or "").split(".") if attr else ():
        value = getattr(value, part)
    return value


def load(data: dict, name: str):
    """The function a :func:`recipe` describes, in a fresh globals dict; raises
    :class:`NotPortable` with a one-line reason if it cannot be re-created here."""
    try:
        return _load(data, name)
    except NotPortable:
        raise
    except Exception as exc:  # noqa: BLE001 - a malformed recipe
        raise NotPortable(CANNOT_BE_GRADED.format(name=name, error=type(exc).__name__)) from None


def _load(data: dict, name: str):
    if not isinstance(data, dict):
        raise NotPortable(CANNOT_BE_GRADED_AT_ALL.format(name=name))
    if "error" in data:
        raise NotPortable(str(data["error"]))
    functions: dict = data.get("functions") or {}
    made: dict[str, types.FunctionType] = {}
    g: dict = {"__builtins__": builtins, "__name__": "__main__"}
    cells: dict[str, list] = {}
    for key, entry in functions.items():
        code = marshal.loads(base64.b64decode(entry["code"]))
        if not isinstance(code, types.CodeType):
            raise NotPortable(CANNOT_BE_GRADED_AT_ALL.format(name=name))
        closure = tuple(types.CellType() for _ in entry.get("closure") or ())
        if len(closure) != len(code.co_freevars):
            raise NotPortable(CANNOT_BE_GRADED_AT_ALL.format(name=name))
        fn = types.FunctionType(code, g, str(entry["name"]), None, closure or None)
        fn.__qualname__ = str(entry["qualname"])
        made[key], cells[key] = fn, list(closure)

    caches: dict[str, object] = {}

    def build(entry):
        kind = entry.get("kind") if isinstance(entry, dict) else None
        if kind == "ref":
            return made[entry["key"]]
        if kind == "value":
            return decode(entry["data"])
        if kind == "import":
            return _import(str(entry["module"]), entry.get("attr"), name)
        if kind == "cache":  # one wrapper per function, however often it is referred to
            key = str(entry["wrapped"].get("key"))
            if key not in caches:
                wrap = functools.lru_cache(maxsize=entry.get("maxsize"), typed=entry.get("typed"))
                caches[key] = wrap(build(entry["wrapped"]))
            return caches[key]
        if kind == "unusable":
            raise NotPortable(str(entry["message"]))
        raise NotPortable(CANNOT_BE_GRADED_AT_ALL.format(name=name))

    for key, entry in functions.items():
        fn = made[key]
        if entry.get("defaults") is not None:
            fn.__defaults__ = tuple(build(v) for v in entry["defaults"])
        if entry.get("kwdefaults"):
            fn.__kwdefaults__ = {k: build(v) for k, v in entry["kwdefaults"].items()}
        for cell, value in zip(cells[key], entry.get("closure") or (), strict=True):
            if value is not None:
                cell.cell_contents = build(value)
    for global_name, entry in (data.get("globals") or {}).items():
        g[str(global_name)] = build(entry)
    return build(data.get("root"))
