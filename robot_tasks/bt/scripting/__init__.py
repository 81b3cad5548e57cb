"""BT.CPP 4.10's script language (Script, ScriptCondition, _skipIf, _post, ...).

    program = parse_script("counter := counter + 1; counter < 10")
    program.evaluate(blackboard, enums)      # -> 1.0 or 0.0, the last statement's value
    script_truthy(value)                     # BT.CPP's cast of a result to bool
    is_valid_script(text)                    # -> (ok, error_message)

A real tokenizer (`tokenizer.py`) and Pratt parser (`parser.py`) build a syntax tree
(`syntax_tree.py`) that `compiler.py` turns into nested closures once; `operators.py`
and `values.py` hold the operator and conversion rules. Never Python eval/exec.
Semantics follow BT.CPP 4.10; `SEMANTICS.md` lists the notable rules and deviations.
"""
from .program import ScriptProgram, is_valid_script, parse_script, script_truthy

__all__ = ["ScriptProgram", "is_valid_script", "parse_script", "script_truthy"]
