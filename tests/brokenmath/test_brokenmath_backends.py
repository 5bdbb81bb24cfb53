"""The OpenAI-compatible client against a stub server on 127.0.0.1, mitigations and construction with mocks."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from icml26.brokenmath import LLMJudge, OpenAIChat, brokenarith, evaluate, load
from icml26.brokenmath.backends import MockChat, check_conversations
from icml26.brokenmath.construction import construct, trivial_counterexample
from icml26.brokenmath.mitigations import BestOfN, ConfidenceSelection, IterativeAgent, parse_confidence
from icml26.brokenmath.sft import build_sft_data


class _Stub(BaseHTTPRequestHandler):
    replies: list = []
    seen: list = []

    def do_POST(self):  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _Stub.seen.append((self.path, self.headers.get("Authorization"), body))
        reply = (
            _Stub.replies.pop(0)
            if _Stub.replies
            else {"choices": [{"message": {"content": r"\boxed{detected}"}}]}
        )
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture
def stub():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Stub)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Stub.replies, _Stub.seen = [], []
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()


@pytest.mark.loopback
def test_openai_client_as_judge(stub):
    client = OpenAIChat(stub, "judge-model", api_key="k", max_tokens=16)
    items = load()[:2]
    report = evaluate(MockChat(lambda c, i: "proof"), LLMJudge(client, votes=3), items)
    assert report.verdicts == ["detected", "detected"] and len(_Stub.seen) == 6
    path, auth, body = _Stub.seen[0]
    assert path == "/v1/chat/completions" and auth == "Bearer k" and body["model"] == "judge-model"
    assert body["messages"][0]["content"].startswith(
        "I have provided an LLM with a modified mathematical problem"
    )


@pytest.mark.loopback
def test_openai_client_malformed_reply(stub):
    _Stub.replies = [{"oops": 1}]
    with pytest.raises(ValueError, match=r"no choices\[0\].message.content"):
        OpenAIChat(stub, "m").chat([[{"role": "user", "content": "hi"}]])


def test_unreachable_endpoint_named():
    client = OpenAIChat("http://127.0.0.1:9/v1", "m", timeout=2, retries=0)
    with pytest.raises(ConnectionError, match="unreachable"):
        client.chat([[{"role": "user", "content": "hi"}]])
    with pytest.raises(ValueError, match="http"):
        OpenAIChat("localhost:8000", "m")


def test_conversations_validated():
    with pytest.raises(ValueError, match="role system"):
        check_conversations([[{"role": "robot", "content": "x"}]])
    with pytest.raises(TypeError, match="list of message lists"):
        check_conversations("hello")


def test_confidence_selection_and_parse():
    assert parse_confidence("a <confidence> 85 </confidence>") == 85
    assert parse_confidence("<confidence>0.4</confidence>") == 40
    assert parse_confidence("none") is None
    replies = iter(["x <confidence>10</confidence>", "y <confidence>90</confidence>", "z"])
    sel = ConfidenceSelection(MockChat(lambda c, i: next(replies)), n=3)
    assert sel.chat([[{"role": "user", "content": "p"}]]) == ["y <confidence>90</confidence>"]


def test_best_of_n_bracket():
    # the judge prefers the longer proof; the longest of four must win the bracket
    def judge(conv, i):
        text = conv[-1]["content"]
        a = text.split("### Proof Solution A:\n")[1].split("\n\n### Proof Solution B:")[0]
        b = text.split("### Proof Solution B:\n")[1]
        return r"\boxed{B}" if len(b) > len(a) else r"\boxed{A}"

    sizes = iter([3, 9, 1, 5])
    bon = BestOfN(MockChat(lambda c, i: "p" * next(sizes)), MockChat(judge), n=4)
    assert bon.chat([[{"role": "user", "content": "q"}]], items=load()[:1]) == ["p" * 9]


def test_agent_accepts_after_clean_verification():
    def model(conv, i):
        last = conv[-1]["content"]
        if last.startswith('Response in "yes" or "no"'):
            return "yes" if "fixed" in last else "no"
        if "bug report" in last.lower() or conv[-1]["content"].startswith("Below is the bug report"):
            return "fixed solution"
        if conv[0]["content"].startswith("You are an expert mathematician"):
            return "report: " + ("fixed" if "fixed solution" in last else "broken")
        return "draft solution"

    agent = IterativeAgent(MockChat(model))
    assert agent.chat([[{"role": "user", "content": "Prove it."}]]) == ["fixed solution"]
    assert [s["step"] for s in agent.history[0]] == ["init", "verify", "correct", "verify"]


def test_construction_filters():
    items = load()[:3]
    rewrites = iter(["Prove a false thing.", "Not applicable", "Prove another."])
    model = MockChat(lambda c, i: next(rewrites))
    verdicts = iter([r"\boxed{0}", r"\boxed{1}"])
    out = construct(model, MockChat(lambda c, i: next(verdicts)), items)
    assert [len(out[k]) for k in ("kept", "trivial", "unparseable", "not_applicable")] == [1, 1, 0, 1]
    assert out["kept"][0].problem == "Prove a false thing."
    assert trivial_counterexample(MockChat(lambda c, i: "unsure"), items[:1]) == [None]


def test_sft_builder_filters_by_judge():
    pairs = brokenarith.generate(20, seed=2)
    items = [it for p in pairs for it in p]
    replies = [brokenarith.teacher_response(it) for it in items]
    replies[0] = f"We prove it. \\boxed{{{items[0].claimed}}}"  # sycophantic: must be dropped
    replies[1] = "The value is \\boxed{-1}."  # a wrong answer on a true twin: dropped
    data = build_sft_data(items, replies, brokenarith.exact_verdict, brokenarith.exact_correct, adv_frac=0.5)
    kept = {it.problem_id for it, _ in data}
    assert items[0].problem_id not in kept and items[1].problem_id not in kept
    assert sum(it.is_adversarial for it, _ in data) == sum(not it.is_adversarial for it, _ in data) == 19
    with pytest.raises(ValueError, match="adv_frac"):
        build_sft_data(items, replies, brokenarith.exact_verdict, brokenarith.exact_correct, adv_frac=1.0)


def test_sft_builder_keeps_only_ideal_and_detected_replies_and_honours_adv_frac():
    """The paper's filter: an adversarial reply is kept only when judged correct or detected; "corrected" (the
    right value without calling the statement false) is dropped. ``adv_frac`` sets the adversarial share."""
    pairs = brokenarith.generate(20, seed=2)
    items = [it for p in pairs for it in p]
    replies = [brokenarith.teacher_response(it) for it in items]
    replies[0] = f"Computing, the value is \\boxed{{{items[0].answer}}}."  # corrected: dropped
    replies[2] = f"This is false. \\boxed{{{items[2].answer + items[2].claimed + 11}}}"  # detected: kept
    assert brokenarith.exact_verdict(items[0], replies[0]) == "corrected"
    assert brokenarith.exact_verdict(items[2], replies[2]) == "detected"
    data = build_sft_data(items, replies, brokenarith.exact_verdict, brokenarith.exact_correct, adv_frac=0.5)
    kept = {it.problem_id for it, _ in data}
    assert items[0].problem_id not in kept and items[2].problem_id in kept
    # 19 adversarial kept, 20 originals: adv_frac 0.25 takes int(20 / 3) = 6 adversarial and 18 originals (6 / 24)
    quarter = build_sft_data(
        items, replies, brokenarith.exact_verdict, brokenarith.exact_correct, adv_frac=0.25
    )
    n_adv = sum(it.is_adversarial for it, _ in quarter)
    assert (n_adv, len(quarter) - n_adv) == (6, 18)
