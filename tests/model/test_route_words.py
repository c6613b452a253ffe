"""A routed length named piece by piece: faces, drops, trays, slack, total."""

from __future__ import annotations

from model.engine.route_words import explain_route, port_face
from model.engine.routed_links import RoutedLinks
from tests.builders import small_pod


def test_a_tray_route_names_each_piece_with_its_face_and_length():
    design = small_pod()
    plant = RoutedLinks(design)
    plant.refresh()
    route = plant.route("l-1")
    lines = explain_route(design, "l-1", route)
    face_a, face_b = port_face(design, "a1"), port_face(design, "leaf1")
    assert lines[0].startswith(f"vertical A: from a1:nic1 ({face_a}, U2) to the tray")
    assert lines[1] == f"hop A: {face_a} drop of R1 to the tray, {route.hop_a_m:.2f} m"
    assert lines[3] == f"hop B: {face_b} drop of N1 to the tray, {route.hop_b_m:.2f} m"
    assert lines[-1] == f"= {route.total_m:.2f} m routed"
    pieces = route.vertical_a_m + route.hop_a_m + route.tray_m + route.hop_b_m + route.vertical_b_m
    assert abs(pieces + route.slack_m - route.total_m) < 0.02
    plant.close()
