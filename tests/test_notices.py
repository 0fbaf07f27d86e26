"""Platform notices: a platform's hosting statement and a newsletter's sign-up prompt are not the post (issue 33's lines around the body)."""
import random

from conftest import PAGES
from pith.pages import static
from pith.pipeline import features, notices, snapshot
from pith.pipeline.blocks import segment
from pith.pipeline.options import Options
from pith.pipeline.select import select



def collapsed(texts):
    """Texts with their whitespace collapsed, the form segment.texts gives the rules."""
    return [" ".join(t.split()) for t in texts]


HOSTED = PAGES / "hosted-post" / "source.html"
NEWSLETTER = PAGES / "newsletter-box" / "source.html"


def read(page, options=None):
    snap = static.snapshot_from_html(page.read_text(encoding="utf-8"),
                                     "https://news.example.org/a/2024/05/20/" + page.parent.name)
    return select(snap, Options.from_overrides(options or {})).output("text")


def test_a_hosted_posts_platform_statement_is_left_out():
    """The failure this fixes: the block model judges the platform's statement under a
    short hosted post as the post's last sentences, a quarter of a three-paragraph answer
    (fails with auto_hosting_notices off, below)."""
    text = read(HOSTED)
    assert "改造后的市场增加了通风和排水设施" in text and "帮助老年居民使用新的支付方式" in text
    assert "信息存储" not in text and "information storage" not in text
    off = read(HOSTED, {"auto_hosting_notices": False})
    assert "本平台仅提供信息存储服务" in off and "only provides information storage services" in off


def test_a_newsletter_box_inside_a_story_is_left_out():
    """The failure this fixes: a newsletter box between two paragraphs, its name, its call
    and its consent kept as the story's lines (fails with auto_signup_prompts off, below)."""
    text = read(NEWSLETTER)
    assert "opens onto the mountains." in text and "Tickets go on sale next month" in text
    assert "Sign up" not in text and "By signing up" not in text
    assert "Rail Review Weekly" not in text        # the box's name goes with its prompt
    off = read(NEWSLETTER, {"auto_signup_prompts": False})
    assert "Sign up for our weekly newsletter" in off and "By signing up you agree" in off


def test_hosting_statements_are_found_by_their_phrase():
    found = ["特别声明：以上内容(如有图片或视频亦包括在内)为自媒体平台“网易号”用户上传并发布，"
             "本平台仅提供信息存储服务。",
             "平台声明：该文观点仅代表作者本人，搜狐号系信息发布平台，搜狐仅提供信息存储空间服务。",
             "Notice: The content above is uploaded and posted by a user of NetEase Hao, which "
             "is a social media platform and only provides information storage services."]
    kept = ["责任编辑：李曦", "The service only provides storage for photos.",
            "云服务商为企业提供信息存储和计算服务，市场规模逐年扩大。",
            "本平台仅提供信息存储服务。" + "平台的责任在法律上如何界定，学界一直有争论。" * 16]
    assert notices.hosting(collapsed(found)).all()
    assert not notices.hosting(collapsed(kept)).any()


def test_signup_prompts_are_found_by_their_consent_confirmation_or_call():
    found = ["Sign up for Mashable's weekly Light Speed newsletter.",
             "By signing up you agree to our Terms of Use and Privacy Policy.",
             "By entering your email address you agree to our Terms of Use and Privacy Policy "
             "and consent to receive emails from Time Out.",
             "Thanks for signing up!", "Thanks for subscribing! Look out for your first "
             "newsletter in your inbox soon!", "🙌Awesome, you're subscribed!",
             "Join our mailing list! Get a newsletter when an episode is published",
             "Gastro Obscura covers the world’s most wondrous food and drink. Sign up for our "
             "email, delivered twice a week.", "Get our free weekly newsletter"]
    kept = ["Sign up for Coursera Plus and start 2026 with a new skill",
            "You can help. Sign up to take action in your state.",
            "Space is limited so sign up today!",
            "[ Keep up on the day's tech news headlines with InfoWorld's Today's Headlines: "
            "Wrap Up newsletter. ]",
            "P.S. Did you know we send this briefing by email, too? Sign up here.",
            "Monday newsletters always feature top 10 travel lists to inspire.",
            "Get in touch by email if you have a question about your order.",
            "If you are subscribed to the premium plan, the reports arrive every Monday.",
            "Sign up for our newsletter. " + "The council met on Monday to set the dues. " * 8]
    assert notices.signups(collapsed(found)).all()
    assert not notices.signups(collapsed(kept)).any()


def box_of(body):
    """Per text block of `body`: (its text, inside a sign-up prompt's box)."""
    snap = snapshot.from_json(static.snapshot_from_html(f"<html><body>{body}</body></html>",
                                                        "https://news.example.org/a"), 10_000)
    feats = features.compute(snap, skip_hidden=True)
    blocks = segment.compute(snap, feats)
    texts = segment.texts(snap, blocks)
    found = notices.boxes(snap, feats, blocks, notices.signups(texts))
    return list(zip(texts, found.tolist()))


def test_a_prompts_box_is_its_short_lines_and_no_paragraph_of_the_story():
    short_story = ("The morning ferry leaves forty minutes later from next Monday while the "
                   "crews rebuild the wall that fell in January.")
    box = box_of(f'<div class="wrap"><p>{short_story}</p>'
                 '<div class="promo"><h4>Harbour Weekly</h4><p>Want more island news?</p>'
                 '<p>Sign up for our newsletter.</p></div></div>')
    assert box == [(short_story, False), ("Harbour Weekly", True),
                   ("Want more island news?", True), ("Sign up for our newsletter.", True)]
    box = box_of(f'<div class="story"><p>{short_story}</p><p>Sign up for our newsletter.</p></div>')
    assert box == [(short_story, False), ("Sign up for our newsletter.", True)]


def slow_found(texts, pattern):
    """The rule read text by text, with no prefilter (the form before the words' search)."""
    return [0 < len(t) <= notices.NOTICE_CHARS and pattern.search(t.lower()) is not None
            for t in texts]


def test_the_prefilter_passes_over_no_notice():
    """Only the texts holding one of HOSTING_WORDS or SIGNUP_WORDS are read (NOTES.md, 'Why
    the line rules search a page's texts at once'); a notice at the filter's edge is still
    found: in capitals, first and last in the join, exactly NOTICE_CHARS long, beside an
    "İ" (two characters lower-cased) or after a text cut at the join's length."""
    edge = ["BY SIGNING UP YOU AGREE TO OUR TERMS", "By entering your e-mail address you consent",
            "Thank you for subscribing!", "You’re subscribed!", "Join our mailing list!",
            "Get our free weekly Newsletter", "Sign up for the inbox edition.",
            "本平台仅提供信息存储空间服务。", "NetEase only provides information storage space.",
            "x" * (notices.NOTICE_CHARS - 30) + ". Subscribe to our newsletter"]
    for filler in ([], ["İstanbul"], ["word " * 5000]):
        for text in edge:
            texts = [text] + filler + ["A paragraph of the story."] + [text]
            for pattern, find in ((notices.HOSTING, notices.hosting),
                                  (notices.SIGNUP, notices.signups)):
                assert find(texts).tolist() == slow_found(texts, pattern)
            assert (notices.hosting(texts) | notices.signups(texts))[[0, -1]].all()


def test_the_prefilter_agrees_with_the_rule_on_mixed_texts():
    """Texts drawn from the prompts' words in any case, with "İ" and filler: the
    prefiltered rules flag exactly what the rules read text by text flag."""
    rng = random.Random(20261128)
    parts = ["by", "signing up", "SIGN UP", "subscribe", "Subscribed", "you're", "join",
             "our", "the", "newsletter", "e-mail", "mailing list", "inbox", "get", "thanks for",
             "agree", "entering your email", "仅提供信息存储", "information storage", "only provides",
             "İ", ".", "!", "x" * 120]
    for _ in range(400):
        texts = [" ".join(rng.choice(parts) for _ in range(rng.randint(0, 6)))
                 for _ in range(rng.randint(1, 12))]
        assert notices.signups(texts).tolist() == slow_found(texts, notices.SIGNUP)
        assert notices.hosting(texts).tolist() == slow_found(texts, notices.HOSTING)
