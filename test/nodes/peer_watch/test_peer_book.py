"""PeerBook: what peer_watch reports as the expected peers come and go (logic only)."""
from robot_tasks.nodes.peer_watch.peers import PeerBook


def kinds(events):
    return [(e.peer, e.kind) for e in events]


def test_seen_lost_back_and_never_seen():
    book = PeerBook(["/sim", "/camera"], start=0.0, missing_after_s=10.0)
    assert kinds(book.update({"/sim", "/me"}, now=1.0)) == [("/sim", "seen")]
    assert book.update({"/sim"}, now=2.0) == []                      # nothing new: nothing said
    assert kinds(book.update({"/me"}, now=5.0)) == [("/sim", "lost")]
    assert book.lost() == ["/sim"]
    assert book.update({"/me"}, now=9.0) == []                       # said once, not every look
    assert kinds(book.update(set(), now=10.0)) == [("/camera", "missing")]
    assert book.update(set(), now=20.0) == []
    back = book.update({"/sim"}, now=12.5)
    assert kinds(back) == [("/sim", "back")] and "7.5 s after it was lost" in back[0].text
    assert book.lost() == []
    assert kinds(book.update({"/sim", "/camera"}, now=13.0)) == [("/camera", "seen")]


def test_warnings_are_the_bad_news():
    book = PeerBook(["/sim"], start=0.0, missing_after_s=0.0)
    missing = book.update(set(), now=0.0)
    assert kinds(missing) == [("/sim", "missing")] and missing[0].warning
    seen = book.update({"/sim"}, now=1.0)
    assert kinds(seen) == [("/sim", "seen")] and not seen[0].warning
    lost = book.update(set(), now=2.0)
    assert lost[0].warning and "LOST" in lost[0].text


def test_a_peer_that_starts_again_while_its_old_self_is_listed():
    book = PeerBook(["/sim"], start=0.0)
    book.update(["/sim"], now=1.0)
    again = book.update(["/sim", "/sim"], now=5.0)       # killed and booted within the lease
    assert kinds(again) == [("/sim", "again")] and not again[0].warning
    assert book.update(["/sim"], now=25.0) == []          # the old one's lease ran out: still here
    assert book.update(["/sim", "/sim"], now=26.0) != []  # and again
