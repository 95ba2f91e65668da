"""Requests and answers checked against Discord's OpenAPI description (`specs/openapi.json`).

The description is OpenAPI 3.1, whose schemas are JSON Schema 2020-12. Its `$ref`s are resolved
once, at load (each becomes the object it points to), and each (route, method, request or status)
gets a `Draft202012Validator` on its schema, built at first use and kept for the process, as is
the validator of every subschema it descends into. A request body that does not match is
refused with Discord's 400 Invalid Form Body (the field path and the limit in the message); an
answer that does not match is the emulator's own bug (`check_response` says why).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from emulator.errors import ApiError, form_error

SPEC_URI = "urn:discord-api-spec:openapi.json"
_LABELS = {"title", "description"}


@dataclass
class SpecStats:
    """How many requests and answers were checked, and the time it took (for `bench/`)."""

    requests: int = 0
    responses: int = 0
    request_seconds: float = 0.0
    response_seconds: float = 0.0

    def add_request(self, seconds: float) -> None:
        """Count one checked request body."""
        self.requests += 1
        self.request_seconds += seconds

    def add_response(self, seconds: float) -> None:
        """Count one checked answer."""
        self.responses += 1
        self.response_seconds += seconds


_METHODS = ("get", "put", "post", "patch", "delete")


@functools.cache
def document() -> dict[str, Any]:
    """The vendored description, parsed once per process."""
    text = resources.files("emulator").joinpath("specs/openapi.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@functools.cache
def schemas() -> dict[str, Any]:
    """The description as checked: corrected, its unions dispatched, every `$ref` replaced by its target."""
    return _dereferenced(_corrected(_discriminated(document())))


@functools.cache
def registry() -> Registry[Any]:
    """The description as one JSON Schema 2020-12 resource (it holds no `$ref` left to resolve)."""
    return Registry().with_resource(SPEC_URI, DRAFT202012.create_resource(schemas()))


def _is_reference(node: dict[str, Any]) -> bool:
    return isinstance(node.get("$ref"), str) and set(node) - _LABELS == {"$ref"}


def _dereferenced(spec: dict[str, Any]) -> dict[str, Any]:
    """The description with each `{"$ref": "#/..."}` replaced by the very object it points to, in place.

    Resolving a `$ref` through the registry at every use was most of the cost of a check (a
    message's answer crosses dozens); the verdicts are the same, because a `$ref` with nothing
    beside it but a description validates exactly as its target does. A recursive schema (a
    message's `referenced_message` is a message) becomes a cycle of Python objects, which
    validation follows only as deep as the instance goes. Raises ValueError on a `$ref` this
    cannot replace, so none is ever left to resolve.
    """

    def target(ref: str) -> Any:
        if not ref.startswith("#/"):
            raise ValueError(f"a $ref outside the description: {ref}")
        node: Any = spec
        for part in ref[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def resolved(node: dict[str, Any]) -> Any:
        seen: set[int] = set()
        while isinstance(node, dict) and _is_reference(node):
            if id(node) in seen:
                raise ValueError(f"a $ref that refers only to itself: {node['$ref']}")
            seen.add(id(node))
            node = target(node["$ref"])
        return node

    done: set[int] = set()
    stack: list[Any] = [spec]
    while stack:
        node = stack.pop()
        if id(node) in done:
            continue
        done.add(id(node))
        if isinstance(node, dict) and "$ref" in node:
            raise ValueError(f"a $ref beside other keywords: {sorted(node)}")
        for key, value in list(node.items() if isinstance(node, dict) else enumerate(node)):
            if isinstance(value, dict) and _is_reference(value):
                value = node[key] = resolved(value)
            if isinstance(value, dict | list):
                stack.append(value)
    return spec


def _corrected(spec: dict[str, Any]) -> dict[str, Any]:
    """Where the description says less than Discord does (each checked against Discord's documentation).

    * A snowflake is a string of digits in Discord's answers, but Discord also takes it as a JSON
      integer in a request, which is what discord.py sends (`recipient_id`, `attachments[].id`):
      `x-snowflake` takes both in requests and only strings in answers.
    * A field error of a 400 Invalid Form Body carries a string code (`"BASE_TYPE_REQUIRED"` in
      Discord's documentation of errors), where the description reuses the top-level error whose
      code is an integer.
    """
    schemas = spec["components"]["schemas"]
    schemas["SnowflakeType"] = {"x-snowflake": True}
    field_error = {**schemas["Error"], "properties": {**schemas["Error"]["properties"], "code": {"type": "string"}}}
    schemas["InnerErrors"]["properties"]["_errors"]["items"] = field_error
    return spec


def _discriminated(spec: dict[str, Any]) -> dict[str, Any]:
    """The description with its unions dispatched, to the same verdicts, in far less time.

    * A message's components, a command's options, an interaction callback are each a oneOf/anyOf
      of object schemas that all require `type`, each with its own single value: at most one
      branch can match, so `x-tagged` checks the one branch its `type` names (and `{"type":
      "null"}` if the union has it).
    * An enumeration written as a oneOf of distinct consts is an `enum`.
    * Most fields are `oneOf: [{"type": "null"}, X]`: a value that is not null can only match X,
      so `x-or-null` checks X alone (and the union itself for null).

    With the unions as written, a message with 25 buttons and an embed took ~45 ms to check; and
    the error names the field that is wrong, not "is not valid under any of the given schemas".
    """
    schemas = spec["components"]["schemas"]

    def resolve(branch: dict[str, Any]) -> dict[str, Any]:
        while set(branch) == {"$ref"} and branch["$ref"].startswith("#/components/schemas/"):
            branch = schemas[branch["$ref"].rsplit("/", 1)[1]]
        return branch

    def tag(branch: dict[str, Any]) -> Any:
        target = resolve(branch)
        if target == {"type": "null"}:
            return None
        prop = (target.get("properties") or {}).get("type") or {}
        values = prop.get("enum") or ([prop["const"]] if "const" in prop else [])
        if "type" not in (target.get("required") or []) or len(values) != 1 or not isinstance(values[0], int):
            raise LookupError
        return values[0]

    def rewrite(node: Any) -> Any:
        if isinstance(node, list):
            return [rewrite(item) for item in node]
        if not isinstance(node, dict):
            return node
        node = {key: rewrite(value) for key, value in node.items()}
        for keyword in ("oneOf", "anyOf"):
            branches = node.get(keyword)
            if not isinstance(branches, list) or len(branches) < 2:
                continue
            consts = [b["const"] for b in branches if isinstance(b, dict) and set(b) - _LABELS == {"const"}]
            if len(consts) == len(branches) and len({json.dumps(c) for c in consts}) == len(consts):
                node["enum"] = consts  # an enumeration written as a oneOf of distinct consts
                del node[keyword]
                continue
            others = [b for b in branches if b != {"type": "null"}]
            if len(others) == 1 and len(branches) == 2:
                node["x-or-null"] = {"schema": others[0], "union": {keyword: branches}}
                del node[keyword]
                continue
            try:
                tags = [tag(branch) for branch in branches]
            except LookupError:
                continue
            tagged = {str(value): branch for value, branch in zip(tags, branches, strict=True) if value is not None}
            if len(tagged) != len(others):  # two branches with one tag: leave the union as it is
                continue
            node["x-tagged"] = {"branches": tagged, "null": len(others) < len(branches)}
            del node[keyword]
        return node

    rewritten: dict[str, Any] = rewrite(spec)
    return rewritten


def _tagged(validator: Any, spec: dict[str, Any], instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    if instance is None and spec["null"]:
        return
    if not isinstance(instance, dict):
        yield ValidationError(f"{instance!r} is not an object", validator="type", validator_value="object")
        return
    if "type" not in instance:
        yield ValidationError("'type' is a required property", validator="required", validator_value=["type"])
        return
    branch = spec["branches"].get(str(instance["type"])) if isinstance(instance["type"], int) else None
    if branch is None:
        values = [int(v) for v in spec["branches"]]
        yield ValidationError(
            f"{instance['type']!r} is not one of {values}", validator="enum", validator_value=values, path=["type"]
        )
        return
    yield from validator.descend(instance, branch)


def _or_null(validator: Any, spec: dict[str, Any], instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    yield from validator.descend(instance, spec["union"] if instance is None else spec["schema"])


_SNOWFLAKE = re.compile(r"^(0|[1-9][0-9]*)$")


def _snowflake(integers: bool) -> Any:
    def check(validator: Any, _: Any, instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
        if isinstance(instance, str) and _SNOWFLAKE.match(instance):
            return
        if integers and isinstance(instance, int) and not isinstance(instance, bool) and instance >= 0:
            return
        yield ValidationError(f"{instance!r} is not a snowflake", validator="type", validator_value="snowflake")

    return check


def _descend(
    validator: Any, instance: Any, schema: Any, path: Any = None, schema_path: Any = None, resolver: Any = None
) -> Iterator[ValidationError]:
    """jsonschema's `descend` into a subschema, with the subschema's validator built once per process.

    The stock `descend` builds a validator and a `referencing` resource for every subschema of
    every value checked, which was half the time of a check. With every `$ref` resolved at load
    (`_dereferenced`) nothing needs a resolver of its own, so the validator of each subschema is
    kept (the subschemas live as long as the cached description). The errors are the ones the
    stock `descend` yields: `iter_errors` runs the same keywords in the same order and sets the
    same details, and the paths are prefixed as `descend` does.
    """
    if schema is True or schema is False:
        yield from Draft202012Validator.descend(validator, instance, schema, path, schema_path)
        return
    key = (type(validator), id(schema))
    kept = _SUBSCHEMA_VALIDATORS.get(key)
    if kept is None or kept[0] is not schema:
        kept = _SUBSCHEMA_VALIDATORS[key] = (schema, validator.evolve(schema=schema))
    for error in kept[1].iter_errors(instance):
        if path is not None:
            error.path.appendleft(path)
        if schema_path is not None:
            error.schema_path.appendleft(schema_path)
        yield error


_SUBSCHEMA_VALIDATORS: dict[tuple[type, int], tuple[Any, Any]] = {}
_KEYWORDS = {"x-tagged": _tagged, "x-or-null": _or_null}
RequestValidator = validators.extend(Draft202012Validator, {**_KEYWORDS, "x-snowflake": _snowflake(True)})
ResponseValidator = validators.extend(Draft202012Validator, {**_KEYWORDS, "x-snowflake": _snowflake(False)})
for _checker in (RequestValidator, ResponseValidator):
    _checker.descend = _descend


@functools.cache
def locales() -> frozenset[str]:
    """Discord's locales (`AvailableLocalesEnum`): the keys localisation tables may use."""
    enum = document()["components"]["schemas"]["AvailableLocalesEnum"]
    return frozenset(item["const"] for item in enum["oneOf"])


@functools.cache
def _templates() -> dict[int, list[tuple[tuple[str | None, ...], str]]]:
    """Path templates by segment count; a segment is its literal text or None for a `{parameter}`."""
    table: dict[int, list[tuple[tuple[str | None, ...], str]]] = {}
    for template in document()["paths"]:
        parts = tuple(None if p.startswith("{") else p for p in template.strip("/").split("/"))
        table.setdefault(len(parts), []).append((parts, template))
    return table


_ID = re.compile(r"/[0-9]+(?=/|$)")


def template_for(path: str) -> str | None:
    """The description's path template of an API path (without `/api/vN`): a literal segment
    (`@me`, `@original`, `pins`) wins over a parameter at the same place."""
    return _template_for(_ID.sub("/0", path.split("?", 1)[0]))  # ids never decide: one lookup per shape


@functools.lru_cache(maxsize=4096)
def _template_for(path: str) -> str | None:
    parts = path.strip("/").split("/")
    best: tuple[tuple[bool, ...], str] | None = None
    for pattern, template in _templates().get(len(parts), ()):
        if all(p is None or p == part for p, part in zip(pattern, parts, strict=True)):
            score = tuple(p is not None for p in pattern)
            if best is None or score > best[0]:
                best = (score, template)
    return best[1] if best else None


def _pointer(*parts: str) -> str:
    return "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in parts)


@functools.cache
def _validator(pointer: str, request: bool) -> Any:
    """The validator of one schema of the description, built once: its `$ref`s are already resolved."""
    schema: Any = schemas()
    for part in pointer[1:].split("/"):
        schema = schema[part.replace("~1", "/").replace("~0", "~")]
    return (RequestValidator if request else ResponseValidator)(schema, registry=registry())


def _operation(method: str, path: str) -> tuple[str, dict[str, Any]] | None:
    template = template_for(path)
    if template is None or method.lower() not in _METHODS:
        return None
    operation = document()["paths"][template].get(method.lower())
    return (template, operation) if operation is not None else None


@functools.cache
def _request_pointer(method: str, template: str) -> str | None:
    body = document()["paths"][template][method].get("requestBody")
    if body is None:
        return None
    content = body.get("content") or {}
    # A multipart body's payload_json holds the same object as a JSON body.
    for kind in ("application/json", "multipart/form-data"):
        if kind in content and "schema" in content[kind]:
            return _pointer("paths", template, method, "requestBody", "content", kind, "schema")
    return None


@functools.cache
def _response_pointer(method: str, template: str, status: int) -> str | None | bool:
    """The schema of that answer; None: the answer has no JSON body; False: the status is not declared."""
    responses = document()["paths"][template][method].get("responses") or {}
    for key in (str(status), f"{str(status)[0]}XX", "default"):
        if key in responses:
            break
    else:
        return False
    answer = responses[key]
    pointer = ["paths", template, method, "responses", key]
    if "$ref" in answer:  # #/components/responses/ClientErrorResponse
        pointer = answer["$ref"].lstrip("#/").split("/")
        answer = document()["components"]["responses"][pointer[-1]]
    if "application/json" not in (answer.get("content") or {}):
        return None
    return _pointer(*pointer, "content", "application/json", "schema")


def check_request(method: str, path: str, payload: Any) -> None:
    """Raise Discord's 400 Invalid Form Body when `payload` breaks the request schema of its route."""
    found = _operation(method, path)
    if found is None or payload is None:
        return
    template, _ = found
    pointer = _request_pointer(method.lower(), template)
    if pointer is None:
        return
    if len(_VALID) > 64:
        _VALID.clear()
    key = (pointer, json.dumps(payload, separators=(",", ":")))
    if key in _VALID:  # the bot syncs the same commands (~57 KB, ~45 ms to check) in every test
        return
    error = _first_error(_validator(pointer, True), payload)
    if error is not None:
        raise to_form_error(error, payload)
    if len(key[1]) > 4096:
        _VALID.add(key)


_VALID: set[tuple[str, str]] = set()  # large bodies found valid, by route schema and JSON text


def check_response(method: str, path: str, status: int, body: bytes) -> str | None:
    """Why an answer of the emulator is not what Discord's description says it answers, or None."""
    found = _operation(method, path)
    if found is None:
        return None
    template, _ = found
    pointer = _response_pointer(method.lower(), template, status)
    if pointer is False:
        return f"status {status} is not an answer of {method} {template}"
    if pointer is None or pointer is True:
        return None if not body else f"{method} {template} answers {status} without a JSON body"
    try:
        data = json.loads(body)
    except ValueError:
        return f"{method} {template} {status}: the body is not JSON"
    error = _first_error(_validator(pointer, False), data)
    if error is None:
        return None
    where = ".".join(str(p) for p in error.absolute_path) or "(the body)"
    return f"{method} {template} {status}: at {where}: {error.message[:300]}"


def _first_error(validator: Any, instance: Any) -> ValidationError | None:
    errors = validator.iter_errors(instance)
    first = next(errors, None)
    if first is None:
        return None
    return best_match(_chain(first, errors))


def _chain(first: ValidationError, rest: Iterator[ValidationError]) -> Iterator[ValidationError]:
    yield first
    yield from rest


def _deepest(error: ValidationError) -> ValidationError:
    """In an anyOf/oneOf, the branch that got furthest into the payload (what best_match leaves at the top)."""
    while error.context:
        error = max(error.context, key=lambda e: (len(e.absolute_path), e.validator not in ("type", "const", "enum")))
    return error


_FIXED = re.compile(r"^-?\d+$")


def to_form_error(error: ValidationError, payload: Any) -> ApiError:
    """A schema error as Discord words it: `{"errors": {"field": {"_errors": [{code, message}]}}}`."""
    error = _deepest(error)
    path = [str(p) for p in error.absolute_path]
    keyword, limit = error.validator, error.validator_value
    if keyword == "required":
        instance = error.instance if isinstance(error.instance, dict) else {}
        names = limit if isinstance(limit, list) else []
        missing = next((str(name) for name in names if name not in instance), "?")
        return form_error(".".join([*path, missing]), "BASE_TYPE_REQUIRED", "This field is required")
    where = ".".join(path) or "_root"
    messages = {
        "maxLength": ("BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."),
        "minLength": ("BASE_TYPE_MIN_LENGTH", f"Must be {limit} or more in length."),
        "maxItems": ("BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."),
        "minItems": ("BASE_TYPE_MIN_LENGTH", f"Must be {limit} or more in length."),
        "maxProperties": ("BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."),
        "maximum": ("NUMBER_TYPE_MAX", f"Value must be less than or equal to {limit}."),
        "minimum": ("NUMBER_TYPE_MIN", f"Value must be greater than or equal to {limit}."),
        "enum": ("BASE_TYPE_CHOICES", f"Value must be one of {limit}."),
        "const": ("BASE_TYPE_CHOICES", f"Value must be {limit!r}."),
        "uniqueItems": ("BASE_TYPE_UNIQUE", "Values must be unique."),
        "pattern": ("STRING_TYPE_REGEX", f"String value did not match validation regex {limit}."),
    }
    code, message = messages.get(
        str(keyword), ("BASE_TYPE_INVALID", f"{error.message[:200]} (Discord's description: {keyword} {limit!r})")
    )
    return form_error(where, code, message)
