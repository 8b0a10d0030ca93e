package shaper.tui;

/** The eight content tabs, switched with the number keys 1-8 (or a click on the tab bar). */
enum Tab {
    DASHBOARD('1', "Dashboard", "Dash", false),
    REQUESTS('2', "Requests", "Req", true),
    NETWORK('3', "Network", "Net", true),
    LOGS('4', "Logs", "Logs", true),
    CONCURRENCY('5', "Concurrency", "Conc", false),
    ROUTES('6', "Routes", "Routes", false),
    TOKENS('7', "Tokens", "Tok", false),
    CLIENTS('8', "Clients", "Cli", false);

    final char key;
    final String title;
    final String shortTitle;
    /** Tabs 2-4 take a {@code /} filter. */
    final boolean filterable;

    Tab(char key, String title, String shortTitle, boolean filterable) {
        this.key = key;
        this.title = title;
        this.shortTitle = shortTitle;
        this.filterable = filterable;
    }

    static Tab forKey(char c) {
        for (Tab t : values()) {
            if (t.key == c) {
                return t;
            }
        }
        return null;
    }
}
