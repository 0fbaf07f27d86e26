"""Static capture's tree and its inherited columns: void elements, tables, comments, and
the elements whose children are not rows. The expected trees are Chromium's (each
checked against document.documentElement in Chromium 14x), less what the walk leaves out
by design (svg, template and frame children)."""
from pith.pages.static import snapshot_from_html


def test_nested_void_elements_are_emptied_in_document_order():
    nodes = snapshot_from_html("<div>a<embed>b<source>c<p>d</p>e</source>f</embed>g</div>")["nodes"]
    assert nodes["tag"] == ["html", "head", "body", "div", "embed", "source", "p"]
    assert nodes["parent"] == [-1, 0, 0, 2, 3, 3, 3]
    assert nodes["tail"][4:] == ["b", "c", "efg"]


def test_a_void_element_holding_only_a_comment_keeps_the_text_around_it():
    nodes = snapshot_from_html("<div>a<embed><!-- only -->x</embed>y<wbr></div>")["nodes"]
    embed = nodes["tag"].index("embed")
    assert nodes["tail"][embed] == "xy" and nodes["text"][embed] == ""
    assert embed not in nodes["parent"]


def test_table_sections_and_content_moved_out_of_a_void_get_implied_rows():
    nodes = snapshot_from_html("<table><thead><td>h</td><th>i</th></thead>"
                               "<embed><td>moved</td></embed><col><col></table>")["nodes"]
    # an <embed> in a table is not table content: the parser puts it before the table
    assert nodes["tag"][3:] == ["embed", "table", "thead", "tr", "td", "th", "tbody", "tr",
                                "td", "colgroup", "col", "col"]
    assert nodes["text"][nodes["tag"].index("td", 8)] == "moved"


def test_inherited_columns_follow_the_nearest_ancestor():
    nodes = snapshot_from_html(
        "<h1>a<b>b<h3>c</h3></b><span style='visibility:hidden'>s"
        "<i style='visibility: visible'>v</i><u>u</u></span></h1><p>p</p>")["nodes"]
    row = {t: i for i, t in enumerate(nodes["tag"])}
    assert [nodes["fs"][row[t]] for t in ("h1", "b", "h3", "span", "p")] == \
        [32.0, 32.0, 18.72, 32.0, 16.0]
    assert [nodes["fw"][row[t]] for t in ("body", "h1", "span", "p")] == [400, 700, 700, 400]
    assert [nodes["hidden"][row[t]] for t in ("span", "i", "u", "p")] == [2, 0, 2, 0]


def test_template_svg_and_frames_have_no_child_rows_whatever_they_hold():
    nodes = snapshot_from_html("<svg><title>drawn</title><embed>x</embed></svg>"
                               "<template><embed>t</embed></template><iframe>fb</iframe>"
                               "<p>after</p>")["nodes"]
    # <embed> breaks out of svg content (HTML's foreign-content rules): it is the svg's
    # sibling, the svg's own <title> is not a row
    assert nodes["tag"] == ["html", "head", "body", "svg", "embed", "template", "iframe", "p"]
    assert nodes["text"][3:] == ["", "", "", "", "after"] and nodes["tail"][4] == "x"
