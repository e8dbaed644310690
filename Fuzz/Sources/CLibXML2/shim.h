#ifndef SKETCHPREP_FUZZ_LIBXML2_SHIM_H
#define SKETCHPREP_FUZZ_LIBXML2_SHIM_H
// The one question the HTML harness asks libxml2's HTML parser (the way a browser-like parser
// reads the page): does the document hold a <script> element or an event-handler attribute
// (any attribute whose name starts with "on")? Returns 1 if so, 0 if not, -1 if it cannot parse.
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <strings.h>

static inline int sketchprep_html_node_runs_script(xmlNodePtr node) {
    for (; node != NULL; node = node->next) {
        if (node->type == XML_ELEMENT_NODE) {
            if (node->name != NULL && strcasecmp((const char *)node->name, "script") == 0) return 1;
            for (xmlAttrPtr attribute = node->properties; attribute != NULL; attribute = attribute->next) {
                if (attribute->name != NULL && strncasecmp((const char *)attribute->name, "on", 2) == 0) return 1;
            }
        }
        if (sketchprep_html_node_runs_script(node->children)) return 1;
    }
    return 0;
}

static inline int sketchprep_html_runs_script(const char *html, int length) {
    htmlDocPtr document = htmlReadMemory(html, length, "report.html", "UTF-8",
                                         HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
    if (document == NULL) return -1;
    int found = sketchprep_html_node_runs_script(xmlDocGetRootElement(document));
    xmlFreeDoc(document);
    return found;
}

#endif
