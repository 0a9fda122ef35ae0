"""A small, safe expression language for a director's own points formula.

The text is read by this module only: a tokenizer, a Pratt parser to a tree of frozen
nodes, and an evaluator that walks the tree. Nothing of Python's (``eval``, ``compile``,
``ast``) ever sees the director's text, so there is no attribute, no import and no call
beyond the list below to reach.

    >>> Formula.parse("10 * sqrt(n) / sqrt(k)").evaluate({"n": 16, "k": 4})
    20.0
    >>> Formula.parse("if k <= 3 then 100 / k else 0").evaluate({"k": 2})
    50.0
    >>> Formula.parse("n + x")
    Traceback (most recent call last):
    ...
    series.formula.FormulaError: unknown name 'x' at column 5

The language: numbers, ``+ - * / ^`` (``**`` too) with the usual precedence (``^`` binds
tightest and to the right: ``-2^2`` is -4), parentheses, comparisons ``< <= > >= = == !=``
(true is 1, false 0), ``and``, ``or``, ``not``, ``if(cond, a, b)`` or
``if cond then a else b``, and the functions in ``FUNCTIONS`` on the variables in
``VARIABLES``. Limits keep a formula cheap: its length, its nesting, the size of an
exponent and of any result.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# What a formula may read, for one player's result in one event.
VARIABLES: dict[str, str] = {
    "n": gettext_lazy("entrants (players in the event)"),
    "k": gettext_lazy("place"),
    "b": gettext_lazy("buy-in without the fee (0 in a freeroll)"),
    "rebuys": gettext_lazy("the player's rebuys"),
    "addons": gettext_lazy("the player's add-ons"),
    "knockouts": gettext_lazy("players the player knocked out"),
    "prize": gettext_lazy("the player's prize"),
    "bounties": gettext_lazy("the player's bounties"),
}

MAX_LENGTH = 300
MAX_DEPTH = 40
MAX_EXPONENT = 16.0
MAX_MAGNITUDE = 1e9


class FormulaError(ValueError):
    """A formula that cannot be read or cannot be computed; ``column`` is 1-based."""

    def __init__(self, message: str, column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.column = column
        # Set when the formula failed on a stored result (``series.scoring``).
        self.event_id: int | None = None
        self.player_id: int | None = None
        self.place: int | None = None


def _positive(name: str, value: float, column: int) -> float:
    if value <= 0:
        raise FormulaError(
            _("%(name)s of %(value)s (not above 0) at column %(column)s")
            % {"name": name, "value": _number(value), "column": column},
            column,
        )
    return value


def _sqrt(args: list[float], column: int) -> float:
    if args[0] < 0:
        raise FormulaError(
            _("square root of a negative number (%(value)s) at column %(column)s")
            % {"value": _number(args[0]), "column": column},
            column,
        )
    return math.sqrt(args[0])


def _round(args: list[float], column: int) -> float:
    digits = int(args[1]) if len(args) > 1 else 0
    if not 0 <= digits <= 6:
        raise FormulaError(
            _("round() keeps 0 to 6 decimals, not %(digits)s, at column %(column)s")
            % {"digits": _number(args[1]), "column": column},
            column,
        )
    return float(round(args[0], digits))


def _pow(args: list[float], column: int) -> float:
    base, exponent = args
    if abs(exponent) > MAX_EXPONENT:
        raise FormulaError(
            _("exponent %(value)s is above %(limit)s at column %(column)s")
            % {"value": _number(exponent), "limit": _number(MAX_EXPONENT), "column": column},
            column,
        )
    if base == 0 and exponent < 0:
        raise FormulaError(_("division by zero at column %(column)s") % {"column": column}, column)
    if base < 0 and exponent != int(exponent):
        raise FormulaError(
            _("fractional power of a negative number at column %(column)s") % {"column": column},
            column,
        )
    return float(base**exponent)


# name: (fewest arguments, most arguments or None for any, implementation)
FUNCTIONS: dict[str, tuple[int, int | None, Callable[[list[float], int], float]]] = {
    "sqrt": (1, 1, _sqrt),
    "log": (1, 1, lambda a, c: math.log10(_positive("log", a[0], c))),
    "log10": (1, 1, lambda a, c: math.log10(_positive("log10", a[0], c))),
    "ln": (1, 1, lambda a, c: math.log(_positive("ln", a[0], c))),
    "min": (2, None, lambda a, c: min(a)),
    "max": (2, None, lambda a, c: max(a)),
    "round": (1, 2, _round),
    "abs": (1, 1, lambda a, c: abs(a[0])),
    "floor": (1, 1, lambda a, c: float(math.floor(a[0]))),
    "ceil": (1, 1, lambda a, c: float(math.ceil(a[0]))),
    "pow": (2, 2, _pow),
}

KEYWORDS = ("if", "then", "else", "and", "or", "not")


# ASCII only: str.isdigit() is true of "²" and "٣", which float() then refuses.
DIGITS = frozenset("0123456789")
NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
NAME_CHARS = NAME_START | DIGITS


def _number(value: float) -> str:
    return f"{value:g}"


# Tokens -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Token:
    kind: str  # "number", "name", "op", "end"
    text: str
    column: int
    value: float = 0.0


_OPERATORS = ("**", "<=", ">=", "==", "!=", "<>", "+", "-", "*", "/", "^", "(", ")", ",", "<", ">")
_OPERATORS += ("=",)


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into tokens, refusing anything that is not part of the language."""
    tokens: list[Token] = []
    i = 0
    while i < len(text):
        char = text[i]
        column = i + 1
        if char.isspace():
            i += 1
        elif char in DIGITS or (char == "." and text[i + 1 : i + 2] in DIGITS):
            start = i
            while i < len(text) and text[i] in DIGITS:
                i += 1
            if i < len(text) and text[i] == ".":
                i += 1
                while i < len(text) and text[i] in DIGITS:
                    i += 1
            literal = text[start:i]
            if len(literal.replace(".", "")) > 12:
                raise FormulaError(
                    _("number too long at column %(column)s") % {"column": column}, column
                )
            if i < len(text) and (text[i] in NAME_CHARS or text[i] == "."):
                raise FormulaError(
                    _("unexpected '%(char)s' at column %(column)s")
                    % {"char": text[i], "column": i + 1},
                    i + 1,
                )
            tokens.append(Token("number", literal, column, float(literal)))
        elif char in NAME_START:
            start = i
            while i < len(text) and text[i] in NAME_CHARS:
                i += 1
            name = text[start:i]
            if i < len(text) and text[i] == ".":
                raise FormulaError(
                    _("attribute access ('%(name)s.') is not allowed at column %(column)s")
                    % {"name": name, "column": i + 1},
                    i + 1,
                )
            tokens.append(Token("name", name.lower(), column))
        else:
            for op in _OPERATORS:
                if text.startswith(op, i):
                    tokens.append(Token("op", op, column))
                    i += len(op)
                    break
            else:
                if char == ".":
                    message = _("attribute access is not allowed at column %(column)s")
                else:
                    message = _("unexpected '%(char)s' at column %(column)s")
                raise FormulaError(message % {"char": char, "column": column}, column)
    tokens.append(Token("end", "", len(text) + 1))
    return tokens


# The tree -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Number:
    value: float
    column: int


@dataclass(frozen=True)
class Name:
    name: str
    column: int


@dataclass(frozen=True)
class Unary:
    op: str
    operand: Node
    column: int


@dataclass(frozen=True)
class Binary:
    op: str
    left: Node
    right: Node
    column: int


@dataclass(frozen=True)
class Call:
    name: str
    args: tuple[Node, ...]
    column: int


@dataclass(frozen=True)
class If:
    condition: Node
    then: Node
    otherwise: Node
    column: int


Node = Number | Name | Unary | Binary | Call | If

# Binding powers: a higher number binds tighter.
_INFIX: dict[str, int] = {
    "or": 10,
    "and": 20,
    "<": 40,
    "<=": 40,
    ">": 40,
    ">=": 40,
    "=": 40,
    "==": 40,
    "!=": 40,
    "<>": 40,
    "+": 50,
    "-": 50,
    "*": 60,
    "/": 60,
    "^": 80,
    "**": 80,
}
_NOT_POWER = 30
_UNARY_MINUS_POWER = 70  # below ^, so -2^2 is -(2^2)


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = tokenize(text)
        self.index = 0
        self.depth = 0

    @property
    def token(self) -> Token:
        return self.tokens[self.index]

    def advance(self) -> Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def expect(self, text: str) -> Token:
        token = self.token
        if token.kind not in ("op", "name") or token.text != text:
            raise FormulaError(
                _("expected '%(expected)s' at column %(column)s")
                % {"expected": text, "column": token.column},
                token.column,
            )
        return self.advance()

    def parse(self) -> Node:
        node = self.expression(0)
        if self.token.kind != "end":
            raise FormulaError(
                _("unexpected '%(text)s' at column %(column)s")
                % {"text": self.token.text, "column": self.token.column},
                self.token.column,
            )
        return node

    def expression(self, power: int, left: Node | None = None) -> Node:
        """The expression binding tighter than ``power``; ``left`` is its start when already
        read (an if's bracketed condition)."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise FormulaError(
                _("formula nested too deeply at column %(column)s") % {"column": self.token.column},
                self.token.column,
            )
        if left is None:
            left = self.prefix()
        while True:
            token = self.token
            op = token.text if token.kind in ("op", "name") else ""
            if op not in _INFIX or _INFIX[op] <= power:
                break
            self.advance()
            right_power = _INFIX[op] - 1 if op in ("^", "**") else _INFIX[op]
            left = Binary(op, left, self.expression(right_power), token.column)
        self.depth -= 1
        return left

    def prefix(self) -> Node:
        token = self.advance()
        if token.kind == "number":
            return Number(token.value, token.column)
        if token.kind == "op" and token.text == "-":
            return Unary("-", self.expression(_UNARY_MINUS_POWER), token.column)
        if token.kind == "op" and token.text == "+":
            return self.expression(_UNARY_MINUS_POWER)
        if token.kind == "op" and token.text == "(":
            node = self.expression(0)
            self.expect(")")
            return node
        if token.kind == "name":
            return self.name(token)
        if token.kind == "end":
            raise FormulaError(
                _("formula ends too soon at column %(column)s") % {"column": token.column},
                token.column,
            )
        raise FormulaError(
            _("unexpected '%(text)s' at column %(column)s")
            % {"text": token.text, "column": token.column},
            token.column,
        )

    def name(self, token: Token) -> Node:
        name = token.text
        if name == "not":
            return Unary("not", self.expression(_NOT_POWER), token.column)
        if name == "if":
            return self.conditional(token)
        if name in FUNCTIONS:
            if self.token.text != "(":
                raise FormulaError(
                    _("expected '(' after %(name)s at column %(column)s")
                    % {"name": name, "column": self.token.column},
                    self.token.column,
                )
            return self.call(token)
        if self.token.kind == "op" and self.token.text == "(":
            raise FormulaError(
                _("unknown function '%(name)s' at column %(column)s")
                % {"name": name, "column": token.column},
                token.column,
            )
        if name in VARIABLES:
            return Name(name, token.column)
        raise FormulaError(
            _("unknown name '%(name)s' at column %(column)s")
            % {"name": name, "column": token.column},
            token.column,
        )

    def arguments(self) -> list[Node]:
        self.expect("(")
        return self.more_arguments(self.expression(0))

    def more_arguments(self, first: Node) -> list[Node]:
        """The arguments after the first, up to and including the closing bracket."""
        args = [first]
        while self.token.text == "," and self.token.kind == "op":
            self.advance()
            args.append(self.expression(0))
        self.expect(")")
        return args

    def call(self, token: Token) -> Node:
        fewest, most, _impl = FUNCTIONS[token.text]
        args = self.arguments()
        self.check_arguments(token, args, fewest, most)
        return Call(token.text, tuple(args), token.column)

    def check_arguments(
        self, token: Token, args: list[Node], fewest: int, most: int | None
    ) -> None:
        if len(args) < fewest or (most is not None and len(args) > most):
            if most is None:
                wanted = _("at least %(count)s") % {"count": fewest}
            elif fewest == most:
                wanted = str(fewest)
            else:
                wanted = _("%(fewest)s or %(most)s") % {"fewest": fewest, "most": most}
            raise FormulaError(
                _("%(name)s takes %(wanted)s arguments, not %(count)s, at column %(column)s")
                % {
                    "name": token.text,
                    "wanted": wanted,
                    "count": len(args),
                    "column": token.column,
                },
                token.column,
            )

    def conditional(self, token: Token) -> Node:
        # if(cond, a, b) or: if cond then a else b, whose condition may open with a bracket:
        # "if (k < 5) then 1 else 2", "if (k) + 1 > 4 then ...". What the bracket holds
        # decides: one expression starts the condition, more are the call's arguments. Each
        # "if(" is read once: guessing one form and re-reading as the other on a miss took
        # 2^depth time on nested ifs (seconds for 17 of them).
        if self.token.kind == "op" and self.token.text == "(":
            self.advance()
            args = self.more_arguments(self.expression(0))
            if len(args) > 1:
                self.check_arguments(token, args, 3, 3)
                return If(args[0], args[1], args[2], token.column)
            condition = self.expression(0, args[0])
        else:
            condition = self.expression(0)
        self.expect("then")
        then = self.expression(0)
        self.expect("else")
        otherwise = self.expression(0)
        return If(condition, then, otherwise, token.column)


# Evaluation ---------------------------------------------------------------------------------


def _checked(value: float, column: int) -> float:
    if math.isnan(value) or abs(value) > MAX_MAGNITUDE:
        raise FormulaError(_("result too large at column %(column)s") % {"column": column}, column)
    return value


def _evaluate(node: Node, variables: Mapping[str, float]) -> float:
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Name):
        return float(variables[node.name])
    if isinstance(node, Unary):
        value = _evaluate(node.operand, variables)
        return -value if node.op == "-" else float(not value)
    if isinstance(node, If):
        if _evaluate(node.condition, variables):
            return _evaluate(node.then, variables)
        return _evaluate(node.otherwise, variables)
    if isinstance(node, Call):
        args = [_evaluate(arg, variables) for arg in node.args]
        return _checked(FUNCTIONS[node.name][2](args, node.column), node.column)
    op = node.op
    if op == "and":
        return float(bool(_evaluate(node.left, variables) and _evaluate(node.right, variables)))
    if op == "or":
        return float(bool(_evaluate(node.left, variables) or _evaluate(node.right, variables)))
    left = _evaluate(node.left, variables)
    right = _evaluate(node.right, variables)
    if op == "+":
        return _checked(left + right, node.column)
    if op == "-":
        return _checked(left - right, node.column)
    if op == "*":
        return _checked(left * right, node.column)
    if op == "/":
        if right == 0:
            raise FormulaError(
                _("division by zero at column %(column)s") % {"column": node.column},
                node.column,
            )
        return _checked(left / right, node.column)
    if op in ("^", "**"):
        if abs(right) > MAX_EXPONENT:
            raise FormulaError(
                _("exponent %(value)s is above %(limit)s at column %(column)s")
                % {"value": _number(right), "limit": _number(MAX_EXPONENT), "column": node.column},
                node.column,
            )
        if left == 0 and right < 0:
            raise FormulaError(
                _("division by zero at column %(column)s") % {"column": node.column},
                node.column,
            )
        if left < 0 and right != int(right):
            raise FormulaError(
                _("fractional power of a negative number at column %(column)s")
                % {"column": node.column},
                node.column,
            )
        return _checked(float(left**right), node.column)
    comparisons: dict[str, Callable[[float, float], bool]] = {
        "<": lambda a, b: a < b,
        "<=": lambda a, b: a <= b,
        ">": lambda a, b: a > b,
        ">=": lambda a, b: a >= b,
        "=": lambda a, b: a == b,
        "==": lambda a, b: a == b,
        "!=": lambda a, b: a != b,
        "<>": lambda a, b: a != b,
    }
    return float(comparisons[op](left, right))


@dataclass(frozen=True)
class Formula:
    """A parsed formula: parse once, evaluate for every result."""

    text: str
    tree: Node

    @classmethod
    def parse(cls, text: str) -> Formula:
        text = text.strip()
        if not text:
            raise FormulaError(_("the formula is empty"), 1)
        if len(text) > MAX_LENGTH:
            raise FormulaError(
                _("the formula is %(length)s characters long; at most %(limit)s")
                % {"length": len(text), "limit": MAX_LENGTH},
                MAX_LENGTH + 1,
            )
        return cls(text, _Parser(text).parse())

    def evaluate(self, variables: Mapping[str, float]) -> float:
        """The formula's value for these variables (FormulaError if it cannot be computed)."""
        return _checked(_evaluate(self.tree, variables), 1)
