"""firecrawl-py's `parse` (multipart upload to /v2/parse) and `get_parse_formats` against Tabhive.

The documents are written here with the standard library: a DOCX and an XLSX of the few parts the
formats require, a PDF assembled by hand, and text files.
"""

import io
from pathlib import Path
import zipfile

import pytest
from firecrawl.v2.types import ScrapeOptions
from firecrawl.v2.utils.error_handler import FirecrawlError

REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"


def _zip(parts):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in parts.items():
            archive.writestr(name, text)
    return buffer.getvalue()


def _content_types(main_part, main_type):
    return (
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        f'<Override PartName="/{main_part}" ContentType="{main_type}"/></Types>'
    )


def _root_rels(main_part):
    return (
        f'<Relationships xmlns="{PKG_REL}"><Relationship Id="rId1" '
        f'Type="{REL}/officeDocument" Target="{main_part}"/></Relationships>'
    )


def docx(paragraphs):
    body = "".join(f"<w:p><w:r><w:t>{text}</w:t></w:r></w:p>" for text in paragraphs)
    return _zip(
        {
            "[Content_Types].xml": _content_types(
                "word/document.xml",
                "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
            ),
            "_rels/.rels": _root_rels("word/document.xml"),
            "word/document.xml": '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
            f"<w:body>{body}</w:body></w:document>",
        }
    )


def xlsx(name, rows):
    cells = "".join(
        f'<row r="{r + 1}">'
        + "".join(
            f'<c r="{chr(65 + c)}{r + 1}" t="inlineStr"><is><t>{value}</t></is></c>'
            for c, value in enumerate(row)
        )
        + "</row>"
        for r, row in enumerate(rows)
    )
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    return _zip(
        {
            "[Content_Types].xml": _content_types(
                "xl/workbook.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"
            ),
            "_rels/.rels": _root_rels("xl/workbook.xml"),
            "xl/workbook.xml": f'<workbook xmlns="{main}" xmlns:r="{REL}"><sheets>'
            f'<sheet name="{name}" sheetId="1" r:id="rId1"/></sheets></workbook>',
            "xl/_rels/workbook.xml.rels": f'<Relationships xmlns="{PKG_REL}"><Relationship Id="rId1" '
            f'Type="{REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
            "xl/worksheets/sheet1.xml": f'<worksheet xmlns="{main}"><sheetData>{cells}</sheetData></worksheet>',
        }
    )


def pdf(pages):
    """A one-font PDF with one line of text per page; the xref table needs every object's offset."""
    objects = {1: "<< /Type /Catalog /Pages 2 0 R >>", 3: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"}
    kids = []
    for index, text in enumerate(pages):
        page_id = 4 + index * 2
        stream = f"BT /F1 18 Tf 72 720 Td ({text}) Tj ET"
        objects[page_id] = (
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            f"/Resources << /Font << /F1 3 0 R >> >> /Contents {page_id + 1} 0 R >>"
        )
        objects[page_id + 1] = f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream"
        kids.append(f"{page_id} 0 R")
    objects[2] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(pages)} >>"
    out = "%PDF-1.4\n"
    offsets = {}
    for number in sorted(objects):
        offsets[number] = len(out)
        out += f"{number} 0 obj\n{objects[number]}\nendobj\n"
    xref = len(out)
    size = max(objects) + 1
    out += f"xref\n0 {size}\n0000000000 65535 f \n"
    out += "".join(f"{offsets[n]:010d} 00000 n \n" for n in range(1, size))
    out += f"trailer\n<< /Size {size} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
    return out.encode("latin-1")


def test_parse_docx_from_bytes(firecrawl):
    doc = firecrawl.parse(docx(["Hello from Python", "Second paragraph"]), filename="hello.docx")
    assert doc.markdown == "Hello from Python\n\nSecond paragraph"
    assert doc.metadata.source_url == "hello.docx"
    assert doc.metadata.title == "hello"
    assert doc.metadata.credits_used == 1
    assert doc.metadata.content_type == "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def test_parse_xlsx_with_options(firecrawl):
    doc = firecrawl.parse(
        xlsx("Orders", [["Item", "Qty"], ["Honey", "3"]]),
        filename="orders.xlsx",
        options=ScrapeOptions(formats=["markdown", "html"]),
    )
    assert doc.markdown == "## Orders\n\n| Item | Qty |\n| --- | --- |\n| Honey | 3 |"
    assert "<table>" in doc.html


def test_parse_pdf_from_a_path(firecrawl, tmp_path):
    path = tmp_path / "two-pages.pdf"
    path.write_bytes(pdf(["Alpha page", "Beta page"]))
    doc = firecrawl.parse(path)
    assert doc.markdown == "Alpha page\n\nBeta page"
    assert doc.metadata.num_pages == 2
    assert doc.metadata.credits_used == 2
    assert doc.metadata.source_url == "two-pages.pdf"


def test_parse_text_kinds_from_file_objects(firecrawl):
    markdown = firecrawl.parse(io.BytesIO(b"# Heading\n\nBody text."), filename="notes.md")
    assert markdown.markdown == "# Heading\n\nBody text."
    html = firecrawl.parse(
        b"<html><head><title>T</title></head><body><h2>Sub</h2><p>Para</p></body></html>", filename="page.html"
    )
    assert html.markdown == "## Sub\n\nPara"
    assert html.metadata.title == "T"
    text = firecrawl.parse(b"plain text stays plain", filename="plain.txt")
    assert text.markdown == "plain text stays plain"


def test_parse_refuses_a_mislabelled_file(firecrawl):
    with pytest.raises(FirecrawlError) as refused:
        firecrawl.parse(pdf(["x"]), filename="report.docx")
    assert refused.value.status_code == 415
    assert "PDF document (application/pdf)" in str(refused.value)


def test_parse_refuses_browser_options_in_the_client(firecrawl):
    with pytest.raises(ValueError, match="do not support actions"):
        firecrawl.parse(b"x", filename="a.txt", options=ScrapeOptions(actions=[{"type": "wait", "milliseconds": 10}]))


def test_get_parse_formats(firecrawl):
    formats = {entry.format: entry for entry in firecrawl.get_parse_formats()}
    assert {"pdf", "docx", "xlsx", "pptx", "ods", "html", "markdown", "csv", "text"} <= set(formats)
    assert formats["pdf"].mime_types == ["application/pdf"]
    assert formats["docx"].available is True


def test_parse_ocrs_an_image(firecrawl):
    """A scan generated from known text (test/fixtures/ocr), read with OCR (the image parser)."""
    fixture = Path(__file__).resolve().parents[2] / "fixtures" / "ocr" / "field-notes.png"
    doc = firecrawl.parse(fixture)
    assert "Field Notes from the River Survey" in doc.markdown
    assert "Water samples were taken at seven stations" in doc.markdown
    assert doc.metadata.content_type == "image/png"
    formats = {entry.format: entry for entry in firecrawl.get_parse_formats()}
    assert formats["image"].kind == "image"
    assert "image/webp" in formats["image"].mime_types
