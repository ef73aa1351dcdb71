"""No column is ignored silently (issue 22, part 3): the columns that play no role, the roles
with no column, and the "did you mean" that joins them; the sections a missing role skips say
which role and which column."""

from __future__ import annotations

import html

import polars as pl
import pytest

from frameeval.exceptions import (
    ColumnNotFoundError,
    InvalidDtypeError,
    InvalidParameterError,
    InvalidValueError,
)
from frameeval.report import build_report, report
from frameeval.report.roles import Roles, Unused, check_task, infer_forecast, unused_columns

FULL = dict(truth="truth", pred="pred", score="score", dataset="dataset", fold="fold")


@pytest.mark.parametrize(
    ("column", "role"),
    [
        ("modle", "learner"),
        ("model_name", "learner"),
        ("probs", "score"),
        ("y_proba", "score"),
        ("datset", "dataset"),
        ("seeds", "repeat"),
        ("row_ids", "instance"),
    ],
)
def test_an_unused_column_close_to_a_common_name_is_guessed_for_its_role(column, role) -> None:
    given = {k: v for k, v in FULL.items() if k != role}
    names = [*given.values(), column]
    unused = unused_columns(names, Roles(**given))
    assert unused.columns == (column,)
    assert unused.guesses == {role: (column,)}


def test_a_column_unlike_any_role_is_listed_but_guessed_for_none() -> None:
    unused = unused_columns([*FULL.values(), "learner", "notes"], Roles(**FULL, learner="learner"))
    assert unused == Unused(("notes",), ("repeat", "instance"), {})
    assert unused.why("instance") == (
        "no instance column (none is named instance, row_id, instance_id or id); unused "
        "columns: 'notes'"
    )
    assert unused.warnings() == [
        "columns ['notes'] play no role; no column was found for --repeat, --instance (give "
        "one with its flag if it is among them)."
    ]


def test_every_column_playing_a_role_leaves_nothing_to_say() -> None:
    roles = Roles(**FULL, learner="learner", repeat="repeat", instance="instance")
    unused = unused_columns(list(vars(roles).values()), roles)
    assert unused == Unused() and unused.warnings() == []


def _text(page: str) -> str:
    return html.unescape(page)


def test_without_pred_the_label_sections_say_which_role_is_missing(small_results) -> None:
    data = small_results.rename({"pred": "preds"})
    roles = Roles(**{**FULL, "pred": None}, learner="learner", repeat="repeat")
    text = _text(build_report(data, roles).render())
    why = (
        "no pred column (none is named pred, y_pred, p, prediction or predicted); the unused "
        "column 'preds' might be it (give it with --pred / pred=)"
    )
    assert f"Label measures and confusion matrices need hard predictions: {why}." in text
    assert f"The tests on accuracy need hard predictions: {why}." in text
    assert "Columns that play no role: 'instance', 'preds'." in text
    assert f"N{why[1:]}: no label measures, confusion matrices or tests on accuracy." in text


def test_the_data_section_names_only_columns_that_exist_and_roles_are_not_mutated(
    small_results,
) -> None:
    roles = Roles(**FULL, repeat="repeat")
    data = small_results.drop("learner").with_columns(pl.col("instance").alias("learner_x"))
    text = _text(build_report(data, roles).render())
    assert roles.learner is None  # the caller's roles: as given
    assert "columns by role: truth = 'truth', pred = 'pred', score = 'score', dataset" in text
    assert "learner = 'learner'" not in text
    assert "Columns that play no role: 'instance', 'learner_x'." in text


def test_a_constant_learner_column_does_not_overwrite_a_column_of_that_name(small_results) -> None:
    """``learner`` given as the data set: the one-learner column is named ``learner_``."""
    data = small_results.drop("learner").rename({"dataset": "learner"})
    roles = Roles(**{**FULL, "dataset": "learner"})
    text = _text(build_report(data, roles).render())
    assert "breast_cancer" in text and "iris" in text  # the data sets are kept


def test_the_library_refuses_a_regression_table_as_a_classification(tmp_path) -> None:
    data = pl.DataFrame({"dataset": ["a"] * 4, "y_true": [1.5, 2.0, 3.0, 4.0], "y_pred": [1.0] * 4})
    with pytest.raises(InvalidValueError) as info:
        report(data, tmp_path / "r.html", task="classification")
    assert str(info.value) == (
        "report(): truth= column 'y_true' must hold class labels, got non-integral values "
        "(e.g. 1.5); for a regression pass task= regression."
    )
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize(
    ("truth", "pred", "task"),
    [
        ([1.5, 2.0, 3.0], [1.0, 2.0, 3.0], "regression"),  # a non-integral truth
        ([1, 2, 3], [1.25, 2.0, 3.0], "regression"),  # integral counts, non-integral predictions
        ([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], "classification"),  # float but integral: labels
        (["a", "b", "a"], ["a", "a", "b"], "classification"),
        ([True, False, True], [True, True, False], "classification"),
    ],
)
def test_the_task_is_detected_from_the_values(truth, pred, task) -> None:
    data = pl.LazyFrame({"y": truth, "p": pred})
    assert check_task(data, Roles(truth="y", pred="p"), "report()", str) == task


def test_a_given_task_is_checked() -> None:
    numbers = pl.LazyFrame({"y": [1.0, 2.0], "p": [1.0, 2.0]})
    roles = Roles(truth="y", pred="p")
    spell = lambda role: f"{role}="  # noqa: E731
    assert check_task(numbers, roles, "report()", spell, "regression") == "regression"
    assert check_task(numbers, roles, "report()", spell, "classification") == "classification"
    with pytest.raises(InvalidParameterError, match=r"task= must be one of \['classification', "):
        check_task(numbers, roles, "report()", spell, "ranking")
    labels = pl.LazyFrame({"y": ["a", "b"], "p": ["a", "a"]})
    with pytest.raises(InvalidDtypeError, match="truth= column 'y' must be numeric for a regr"):
        check_task(labels, roles, "report()", spell, "regression")
    with pytest.raises(ColumnNotFoundError, match="pred= must name the predicted values"):
        check_task(numbers, Roles(truth="y", score="p"), "report()", spell, "regression")


def test_forecast_columns_are_inferred_or_checked() -> None:
    schema = pl.Schema(
        {
            "y": pl.Float64,
            "p": pl.Float64,
            "lo": pl.Float64,
            "Upper": pl.Float64,
            "level": pl.String,
        }
    )
    roles = Roles(truth="y", pred="p")
    spell = lambda role: f"{role}="  # noqa: E731
    found, inferred = infer_forecast(schema, roles, {}, "report()", spell)
    # "level" is a string column: not a quantile level
    assert found == {"lower": "lo", "upper": "Upper", "quantile": None}
    assert inferred == {"lower", "upper"}
    with pytest.raises(ColumnNotFoundError, match="lower= must name a column, got 'low'"):
        infer_forecast(schema, roles, {"lower": "low"}, "report()", spell)
    with pytest.raises(InvalidDtypeError, match="quantile= column 'level' must be numeric"):
        infer_forecast(schema, roles, {"quantile": "level"}, "report()", spell)
    half = pl.Schema({"y": pl.Float64, "p": pl.Float64, "bound": pl.Float64})
    with pytest.raises(ColumnNotFoundError, match="upper= must be given with lower="):
        infer_forecast(half, roles, {"lower": "bound"}, "report()", spell)
    only = pl.Schema({"y": pl.Float64, "p": pl.Float64, "lower": pl.Float64})
    assert infer_forecast(only, roles, {}, "report()", spell)[0]["lower"] is None
