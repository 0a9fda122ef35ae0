"""The Tournament Director's points formula, said in the season's formula language
(``series.formula``) where that language can say it.

TD's formulas are statements: ``assign("name", expression)`` lines, ``if(condition, a, b)``
whose branches may assign, and a last expression or a variable ``points``. They are
translated by substitution: each variable assigned is replaced by its expression (a
conditional assignment becomes an ``if``), TD's names become the season's (``r`` and
``rank`` are ``k``, ``numberOfHits`` is ``knockouts``...), and its functions theirs (TD's
``log`` is the natural logarithm, ``ln`` here). What cannot be said is named: a variable the
site does not have (TD's money totals, league membership...), a function it does not have,
or a result longer than a season's formula may be.

Nothing is evaluated here: the text is tokenized and rewritten, and the result is checked by
``Formula.parse``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext as _

from series.formula import MAX_LENGTH, Formula, FormulaError

MAX_TEXT = 5000
TOKEN = re.compile(
    r"""\s*(?:(?P<string>"[^"]*"|'[^']*')|(?P<number>[0-9]+(?:\.[0-9]*)?|\.[0-9]+)
    |(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<op>&&|\|\||<=|>=|!=|<>|==|[-+*/^%(),;=<>!]))""",
    re.VERBOSE,
)
VARIABLES = {
    "n": "n",
    "numberofplayers": "n",
    "r": "k",
    "rank": "k",
    "numberofhits": "knockouts",
    "hits": "knockouts",
    "numberofrebuys": "rebuys",
    "rebuys": "rebuys",
    "numberofaddons": "addons",
    "addons": "addons",
    "prizewinnings": "prize",
    "winnings": "prize",
}
FUNCTIONS = {
    "round": "round",
    "floor": "floor",
    "ceil": "ceil",
    "pow": "pow",
    "power": "pow",
    "sqrt": "sqrt",
    "log": "ln",
    "ln": "ln",
    "log10": "log10",
    "min": "min",
    "max": "max",
    "abs": "abs",
    "if": "if",
}
OPERATORS = {"&&": " and ", "||": " or ", "and": " and ", "or": " or ", "not": "not ", "is": "="}


@dataclass(frozen=True)
class Translation:
    formula: str  # empty when it cannot be said
    reason: str = ""


class _Untranslatable(Exception):
    pass


class _Translator:
    def __init__(self, text: str) -> None:
        self.tokens: list[tuple[str, str]] = []
        position = 0
        while position < len(text):
            if text[position:].strip() == "":
                break
            match = TOKEN.match(text, position)
            if match is None or match.lastgroup is None:
                raise _Untranslatable(
                    _("“%(text)s” is not read") % {"text": text[position : position + 12].strip()}
                )
            self.tokens.append((match.lastgroup, match.group(match.lastgroup)))
            position = match.end()
        self.index = 0
        self.env: dict[str, str] = {}

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        token = self.peek()
        if token is None:
            raise _Untranslatable(_("the formula ends too early"))
        self.index += 1
        return token

    def expect(self, text: str) -> None:
        kind, found = self.take()
        if found != text:
            raise _Untranslatable(_("“%(text)s” is not read") % {"text": found})

    def program(self) -> str:
        last = ""
        while self.peek() is not None:
            if self.peek() == ("op", ";"):
                self.take()
                continue
            value = self.statement(self.env)
            if value is not None:
                last = value
        if "points" in self.env:
            return self.env["points"]
        if not last:
            raise _Untranslatable(_("it gives no points"))
        return last

    def statement(self, env: dict[str, str]) -> str | None:
        """An assignment (None), an if whose branches assign, or an expression."""
        token = self.peek()
        following = self.tokens[self.index + 1] if self.index + 1 < len(self.tokens) else None
        if token and token[0] == "name" and following == ("op", "("):
            name = token[1].lower()
            if name == "assign":
                self.take()
                self.expect("(")
                kind, variable = self.take()
                if kind != "string":
                    raise _Untranslatable(_("assign() takes a quoted name"))
                self.expect(",")
                env[variable[1:-1].lower()] = self.expression(env)
                self.expect(")")
                return None
            if name == "if" and self.branch_assigns():
                self.take()
                self.expect("(")
                condition = self.expression(env)
                self.expect(",")
                then_env = dict(env)
                self.branch(then_env)
                else_env = dict(env)
                if self.peek() == ("op", ","):
                    self.take()
                    self.branch(else_env)
                self.expect(")")
                for variable in set(then_env) | set(else_env):
                    yes = then_env.get(variable, env.get(variable, "0"))
                    no = else_env.get(variable, env.get(variable, "0"))
                    env[variable] = yes if yes == no else f"if({condition}, {yes}, {no})"
                    if len(env[variable]) > MAX_TEXT:
                        raise _Untranslatable(_("it is too long"))
                return None
        return self.expression(env)

    def branch_assigns(self) -> bool:
        depth = 0
        for kind, text in self.tokens[self.index :]:
            if text == "(":
                depth += 1
            elif text == ")":
                depth -= 1
                if depth == 0:
                    return False
            elif kind == "name" and text.lower() == "assign":
                return True
        return False

    def branch(self, env: dict[str, str]) -> None:
        # A branch: a statement, or statements in parentheses separated by ";".
        if self.peek() == ("op", "(") and self.branch_assigns():
            self.take()
            while self.peek() != ("op", ")"):
                if self.peek() == ("op", ";"):
                    self.take()
                    continue
                self.statement(env)
            self.take()
            return
        self.statement(env)

    def expression(self, env: dict[str, str]) -> str:
        parts: list[str] = []
        depth = 0
        while True:
            token = self.peek()
            if token is None:
                break
            kind, text = token
            if depth == 0 and text in (",", ")", ";"):
                break
            self.take()
            if kind == "number":
                parts.append(text)
            elif kind == "string":
                raise _Untranslatable(_("text values are not read"))
            elif kind == "op":
                if text == "(":
                    depth += 1
                elif text == ")":
                    depth -= 1
                elif text == "%":
                    raise _Untranslatable(_("the site's formula has no “%”"))
                if text in ("(", ")"):
                    parts.append(text)
                elif text == ",":
                    parts.append(", ")
                else:
                    parts.append(f" {OPERATORS.get(text, text).strip()} ")
            else:
                name = text.lower()
                if self.peek() == ("op", "("):
                    if name not in FUNCTIONS:
                        raise _Untranslatable(
                            _("the site's formula has no function %(name)s()") % {"name": text}
                        )
                    parts.append(FUNCTIONS[name])
                elif name in env:
                    parts.append(f"({env[name]})")
                elif name in VARIABLES:
                    parts.append(VARIABLES[name])
                elif name in OPERATORS:
                    parts.append(OPERATORS[name])
                else:
                    raise _Untranslatable(
                        _("the site does not know TD's variable “%(name)s”") % {"name": text}
                    )
            if len("".join(parts)) > MAX_TEXT:
                raise _Untranslatable(_("it is too long"))
        if not parts:
            raise _Untranslatable(_("an empty expression"))
        return "".join(parts)


def td_formula_translate(text: str) -> Translation:
    """The season's formula saying what TD's ``text`` says, or why it cannot."""
    if not text.strip():
        return Translation("", _("TD's formula is empty"))
    if len(text) > MAX_TEXT:
        return Translation("", _("it is too long"))
    try:
        formula = " ".join(_Translator(text).program().split())
    except _Untranslatable as error:
        return Translation("", str(error))
    except RecursionError:
        return Translation("", _("it is too long"))
    if len(formula) > MAX_LENGTH:
        return Translation(
            "",
            _("said in the site's language it is %(length)s characters long, over %(limit)s")
            % {"length": len(formula), "limit": MAX_LENGTH},
        )
    try:
        Formula.parse(formula)
    except FormulaError as error:
        return Translation("", error.message)
    return Translation(formula)
