"""The order the suite runs in (tests/conftest.py): the folders in FOLDER_ORDER, and in each
folder the tests marked ``slow`` first, every other test keeping its collected order."""

from __future__ import annotations

from types import SimpleNamespace

from tests import conftest


def _item(folder: str, name: str, slow: bool = False):
    path = conftest.TESTS / folder / "test_x.py" if folder else conftest.TESTS / "test_x.py"
    marks = {"slow": object()} if slow else {}
    return SimpleNamespace(path=path, name=name, get_closest_marker=marks.get)


def test_folders_in_order_and_slow_tests_first_in_each():
    items = [
        _item("gui", "g1"),
        _item("gui", "g-slow", slow=True),
        _item("fuzz", "f1"),
        _item("model", "m1"),
        _item("model", "m2"),
        _item("model", "m-slow-1", slow=True),
        _item("cli", "c1"),
        _item("", "top"),
        _item("model", "m3"),
        _item("model", "m-slow-2", slow=True),
        _item("fuzz", "f-slow", slow=True),
    ]
    conftest.pytest_collection_modifyitems(items)
    assert [i.name for i in items] == [
        "m-slow-1",
        "m-slow-2",
        "m1",
        "m2",
        "m3",
        "c1",
        "top",
        "f-slow",
        "f1",
        "g-slow",
        "g1",
    ]
