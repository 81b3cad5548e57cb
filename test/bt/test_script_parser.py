"""The Pratt parser: precedence, associativity, statements and syntax errors.

Trees are compared in prefix form (`sexpr()`), so these tests pin the grammar without
evaluating anything. The table mirrors BT.CPP 4.10's binding powers.
"""
import pytest

from robot_tasks.bt.errors import ScriptError
from robot_tasks.bt.scripting import is_valid_script, parse_script
from robot_tasks.bt.scripting.parser import MAX_NESTING, parse_statements


def tree(source):
    statements = parse_statements(source)
    assert len(statements) == 1, statements
    return statements[0].sexpr()


@pytest.mark.parametrize("source, expected", [
    # * / bind tighter than + - ..
    ("1 + 2 * 3", "(+ 1 (* 2 3))"),
    ("1 * 2 + 3", "(+ (* 1 2) 3)"),
    ("a .. b * c", "(.. a (* b c))"),
    # left associativity within one level
    ("4 - 1 + 1", "(+ (- 4 1) 1)"),
    ("8 / 4 / 2", "(/ (/ 8 4) 2)"),
    ("a .. b + c", "(+ (.. a b) c)"),
    # & above | ^, both above comparisons
    ("1 | 2 & 3", "(| 1 (& 2 3))"),
    ("1 ^ 2 | 3", "(| (^ 1 2) 3)"),
    ("3 & 2 == 2", "(cmp (& 3 2) == 2)"),
    ("a + 1 < b | c", "(cmp (+ a 1) < (| b c))"),
    # + above &
    ("1 & 2 + 3", "(& 1 (+ 2 3))"),
    # comparisons above && above ||
    ("a == 1 && b < 2", "(&& (cmp a == 1) (cmp b < 2))"),
    ("a || b && c", "(|| a (&& b c))"),
    ("a && b || c && d", "(|| (&& a b) (&& c d))"),
    # comparison chains are one node
    ("1 < 2 < 3", "(cmp 1 < 2 < 3)"),
    ("a == b != c >= d", "(cmp a == b != c >= d)"),
    # unary binds tightest
    ("-a * b", "(* (- a) b)"),
    ("!a == b", "(cmp (! a) == b)"),
    ("a && !b", "(&& a (! b))"),
    ("~a & b", "(& (~ a) b)"),
    ("- - a", "(- (- a))"),
    ("-(a + b)", "(- (+ a b))"),
    # parentheses
    ("(1 + 2) * 3", "(* (+ 1 2) 3)"),
    ("((a))", "a"),
    # ternary: lower than ||, else-branch nests right, then-branch is a full expression
    ("a || b ? 1 : 2", "(? (|| a b) 1 2)"),
    ("a ? b : c ? d : e", "(? a b (? c d e))"),
    ("a ? b := 1 : 2", "(? a (:= b 1) 2)"),
    ("a ? 1 : 2 + 3", "(? a 1 (+ 2 3))"),
    # assignment is lowest and right-associative through its full-expression RHS
    ("x := a ? 1 : 2", "(:= x (? a 1 2))"),
    ("x = y = 3", "(= x (= y 3))"),
    ("x += 1 + 2", "(+= x (+ 1 2))"),
    ("x -= 1", "(-= x 1)"),
    ("x *= 2", "(*= x 2)"),
    ("x /= 2", "(/= x 2)"),
    ("@x := @y", "(:= @x @y)"),
    # the target is checked at run time, not parse time (as in BT.CPP)
    ("1 + a = 3", "(= (+ 1 a) 3)"),
    ("a == b = c", "(= (cmp a == b) c)"),
])
def test_precedence_and_associativity(source, expected):
    assert tree(source) == expected


@pytest.mark.parametrize("source, values", [
    ("0x10", [16]),
    ("0XfF", [255]),
    ("3.5e2", [350.0]),
    ("'txt'", ["txt"]),
    ("true; false", [1.0, 0.0]),
    # int64 overflow is ignored by BT.CPP's from_chars call: the literal becomes 0
    ("99999999999999999999", [0]),
])
def test_literal_values(source, values):
    assert [s.value for s in parse_statements(source)] == values


@pytest.mark.parametrize("source, count", [
    ("a := 1; b := 2; a + b", 3),
    ("a := 1;", 1),
    ("a := 1;;; b := 2", 2),
    ("a := 1\nb := 2", 2),      # newlines separate nothing, but statements need no ';'
    ("a := 1 b := 2", 2),
    ("1 2 3", 3),
])
def test_statements(source, count):
    assert len(parse_statements(source)) == count


@pytest.mark.parametrize("source, column, fragment", [
    ("", 1, "empty script"),
    ("   \n ", 1, "empty script"),
    (";", 1, "expected an operand but found ';'"),
    ("a := ", 6, "expected an operand but found end of script"),
    ("1 +", 4, "expected an operand but found end of script"),
    ("(1 + 2", 7, "expected ')' but found end of script"),
    ("(1 + 2;", 7, "expected ')' but found ';'"),
    ("a ? b", 6, "expected ':' in ternary expression but found end of script"),
    ("a $ b", 3, "invalid token '$'"),
    ("x := 3foo", 6, "invalid token '3foo'"),
    ("x := 65.", 6, "invalid token '65.'"),
    ("x := 'abc", 6, "invalid token ''abc'"),
    ("x := \"abc\"", 6, "invalid token '\"'"),
    ("a ? b : c = 1", 11, "expected an operand but found '='"),
    ("a ... b", 5, "invalid token '.'"),
    (")", 1, "expected an operand but found ')'"),
    ("a * * b", 5, "expected an operand but found '*'"),
])
def test_syntax_errors_name_the_column_and_show_the_source(source, column, fragment):
    with pytest.raises(ScriptError) as info:
        parse_script(source)
    error = info.value
    assert fragment in error.reason
    assert error.position == column - 1
    assert f"column {column} of '{source}'" in str(error)
    ok, message = is_valid_script(source)
    assert not ok and fragment in message


def test_is_valid_script_accepts_good_scripts():
    assert is_valid_script("a := 1; b = a + 2 < 3 ? 'x' : 'y'") == (True, "")


def test_program_keeps_source():
    assert parse_script("a := 1").source == "a := 1"


def test_deep_nesting_is_a_clear_error_not_a_crash():
    with pytest.raises(ScriptError, match="nested too deeply"):
        parse_script("(" * (MAX_NESTING + 5) + "1" + ")" * (MAX_NESTING + 5))
    with pytest.raises(ScriptError, match="too deep"):
        parse_script(" + ".join(["1"] * 500))
    parse_script("(" * 50 + "1" + ")" * 50)  # reasonable nesting is fine


def test_non_string_source_is_rejected():
    with pytest.raises(ScriptError):
        parse_script(42)


def test_evaluation_never_tokenizes_again(monkeypatch):
    from robot_tasks.bt.scripting import parser, tokenizer
    program = parse_script("x := 1 + 2 * 3")

    def forbidden(source):
        raise AssertionError("tokenize called during evaluation")
    monkeypatch.setattr(tokenizer, "tokenize", forbidden)
    monkeypatch.setattr(parser, "tokenize", forbidden)

    class Board(dict):
        get = dict.__getitem__

        def has_entry(self, key):
            return key in self

        def set(self, key, value):
            self[key] = value
    board = Board()
    assert program.evaluate(board, {}) == 7.0 and board == {"x": 7.0}


def test_the_package_never_calls_python_eval_or_exec():
    import ast
    import pathlib

    import robot_tasks.bt.scripting as package
    for path in pathlib.Path(package.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call):
                builtin = getattr(node.func, "id", "")  # eval(...), exec(...), compile(...)
                method = getattr(node.func, "attr", "")  # ast.literal_eval(...)
                assert builtin not in ("eval", "exec", "compile") and \
                    method != "literal_eval", f"{path.name}:{node.lineno} calls eval/exec"
