import { render } from "preact";
render(<p>timetrack</p>, document.getElementById("app")!);
